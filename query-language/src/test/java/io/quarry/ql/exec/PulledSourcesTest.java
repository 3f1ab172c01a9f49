package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.MakeResultsCommand;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The reduce side's pulled sources ({@link PagesSource}, {@link OutputSource}) through {@link
 * PageReduce#pullFrom}: a generator's pages made only while the chain wants them (a satisfied
 * {@code head} stops it), a finished aggregation's answer pulled into the commands after it, and
 * the search's control stopping either source before a page. Answers computed by hand / plain Java.
 */
class PulledSourcesTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);
  private static final int PAGE_SIZE = 1024;

  @Test
  void headAfterMakeresultsMakesOnlyTheFirstPage() {
    List<Command> commands = parse("| makeresults count=100000 | head 3");
    PagesSource source = PagesSource.of(makeresults(commands.getFirst()));
    List<Page> out = pull(commands.subList(1, commands.size()), source);
    assertThat(TestPages.rows(out)).hasSize(3);
    assertThat(source.pages()).isEqualTo(1); // not the 98 pages of 100000 rows
    assertThat(source.positions()).isEqualTo(PAGE_SIZE);
  }

  @Test
  void withoutHeadEveryPageIsMade() {
    List<Command> commands = parse("| makeresults count=100000 | eval n=1");
    PagesSource source = PagesSource.of(makeresults(commands.getFirst()));
    List<Page> out = pull(commands.subList(1, commands.size()), source);
    assertThat(TestPages.rows(out)).hasSize(100_000);
    assertThat(source.pages()).isEqualTo((100_000 + PAGE_SIZE - 1) / PAGE_SIZE);
  }

  @Test
  void headAfterSortStillReadsEveryPage() {
    // a sort before the head wants all of its input: the head's limit does not stop the source
    List<Command> commands =
        parse("| makeresults count=5000 | streamstats count AS n | sort -n | head 2");
    PagesSource source = PagesSource.of(makeresults(commands.getFirst()));
    List<Map<String, Object>> rows =
        TestPages.rows(pull(commands.subList(1, commands.size()), source));
    assertThat(rows).extracting(r -> r.get("n")).containsExactly(5000L, 4999L);
    assertThat(source.positions()).isEqualTo(5000);
  }

  @Test
  void theControlStopsThePagesSourceBeforeAPage() {
    List<Command> commands = parse("| makeresults count=10000 | eval n=1");
    int[] asked = {0};
    PagesSource source =
        new PagesSource(makeresults(commands.getFirst()), positions -> ++asked[0] > 2);
    List<Page> out = pull(commands.subList(1, commands.size()), source);
    assertThat(TestPages.rows(out)).hasSize(2 * PAGE_SIZE);
    assertThat(asked[0]).isEqualTo(3); // the third page was asked about and not handed on
    assertThat(source.pages()).isEqualTo(2);
  }

  @Test
  void aFinishedAggregationsAnswerIsPulledIntoTheCommandsAfterIt() {
    List<Command> stats = parse("| makeresults count=1 | stats count BY k");
    PageAggregator aggregation = PageAggregator.of(stats.get(1), EVALUATOR, PAGE_SIZE);
    Map<Long, Long> expected = new TreeMap<>();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long i = 0; i < 3000; i++) {
      long k = (i * 7919) % 37;
      rows.add(Map.of("k", k));
      expected.merge(k, 1L, Long::sum);
      if (rows.size() == 500) {
        aggregation.addInput(TestPages.of(rows));
        rows = new ArrayList<>();
      }
    }
    aggregation.addInput(TestPages.of(rows));
    OutputSource source = OutputSource.of(aggregation);
    List<Map<String, Object>> answer =
        TestPages.rows(pull(parse("| makeresults | sort k | head 5").subList(1, 3), source));
    List<Map<String, Object>> want = new ArrayList<>();
    expected.entrySet().stream()
        .limit(5)
        .forEach(
            e -> {
              Map<String, Object> row = new LinkedHashMap<>();
              row.put("k", String.valueOf(e.getKey())); // a group key is its text
              row.put("count", e.getValue());
              want.add(row);
            });
    assertThat(answer).isEqualTo(want);
    assertThat(source.positions()).isEqualTo(37);
  }

  @Test
  void theControlStopsAnOutputSource() {
    List<Command> stats = parse("| makeresults count=1 | stats count BY k");
    PageAggregator aggregation = PageAggregator.of(stats.get(1), EVALUATOR, 16);
    List<Map<String, Object>> rows = new ArrayList<>();
    for (long k = 0; k < 100; k++) {
      rows.add(Map.of("k", k));
    }
    aggregation.addInput(TestPages.of(rows));
    OutputSource source = new OutputSource(aggregation, page -> true);
    assertThat(pull(parse("| makeresults | eval x=1").subList(1, 2), source)).isEmpty();
    assertThat(source.positions()).isZero();
  }

  private static List<Page> pull(
      List<Command> commands, io.quarry.plugin.api.command.Operator source) {
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        PageReduce.overResults(
            commands,
            EVALUATOR,
            out::add,
            new StageStats(commands.stream().map(Command::name).toList()),
            0,
            PAGE_SIZE);
    try {
      reduce.pullFrom(source);
      reduce.run();
    } finally {
      reduce.close();
    }
    return out;
  }

  private static MakeResultsPages makeresults(Command command) {
    return new MakeResultsPages((MakeResultsCommand) command, EVALUATOR.now(), PAGE_SIZE);
  }

  private static List<Command> parse(String search) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse(search);
    return parsed.commands();
  }
}
