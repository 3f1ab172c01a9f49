package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code eventstats} and {@code streamstats} on pages ({@link EventStatsStage}, {@link
 * StreamStatsStage} in a {@link PageReduce}) against {@link EventStatsOperator} and {@link
 * StreamStatsOperator}, and {@code accum}, {@code delta}, {@code autoregress}, {@code trendline},
 * {@code filldown} driven on pages, and {@code stats} as a reduce stage, against the same operators
 * behind the row adapter, over the same input: random pages (whole numbers, decimals, numbers as
 * text, text, nulls, multivalues, a column some pages lack, {@code _time} mostly descending), every
 * result equal row by row and column by column, types included. A difference is a bug in one of the
 * two engines.
 */
class StatefulStagesTest {
  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC);

  @ParameterizedTest
  @ValueSource(
      strings = {
        "eventstats count",
        "eventstats count, sum(n), avg(d) by t",
        "eventstats max(n) AS n, dc(t) by mv",
        "eventstats values(t), list(n), min(d), range(n) by extra",
        "eventstats median(d), stdev(n), mode(t), first(n), latest(t) by n, t",
        "eventstats count AS extra by mv, t",
        "eventstats count AS t by mv",
        "streamstats count AS d",
        "eventstats earliest(_time) AS _time, count(d) by t",
        "eventstats sum(n) AS t by t | where t > 3",
        "streamstats count",
        "streamstats count, sum(n), avg(d) by t",
        "streamstats current=false count, max(n) AS n, values(t) by mv",
        "streamstats window=3 sum(n), dc(t)",
        "streamstats window=2 global=false count, avg(d), last(t) by t",
        "streamstats window=4 current=false list(n) by extra",
        "streamstats time_window=30s count, sum(n) by t",
        "streamstats reset_on_change=true count, range(d) by extra",
        "streamstats reset_before=\"(n>10)\" count, sum(n)",
        "streamstats reset_after=\"(isnull(extra))\" count by t",
        "streamstats count AS extra by mv",
        "streamstats latest(_time) AS _time, earliest(n) by t",
        "eval x=n*2 | streamstats sum(x) AS sx by t | eventstats max(sx) AS top | head 20",
        "sort -d | streamstats count | head 7",
        "accum n",
        "stats count, avg(d), values(t) by mv",
        "streamstats count AS c by t | stats max(c) AS most, dc(n) by t | stats count by most",
        "stats count",
        "where n > 100 | stats count, sum(n)",
        "accum d AS total | accum n AS nt",
        "delta n AS dn | delta d p=2",
        "autoregress n p=1-3",
        "trendline sma3(n) AS s, ema2(d)",
        "filldown n, t, extra",
        "eval y=if(n>3, n, null()) | filldown y | accum y",
        "filldown extra | streamstats count by extra | accum count",
      })
  void pagesAnswerAsRowsDo(String commands) {
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), false);
      assertThat(PipelineTest.table(onPages(commands, input)))
          .as("seed %d: %s", seed, commands)
          .isEqualTo(PipelineTest.table(onRows(commands, input)));
    }
  }

  /**
   * {@code eventstats} and {@code streamstats} on pages against a plain Java computation over the
   * same random rows (no engine of ours): per row with a {@code t}, its group's count and sum of
   * {@code n} (eventstats: the whole input's; streamstats: the rows so far, this one included), in
   * input order, every other field kept.
   */
  @Test
  void groupStatisticsAsPlainJavaComputesThem() {
    for (long seed = 0; seed < 25; seed++) {
      List<Page> input = TimedRandomPages.of(new Random(seed), false);
      List<java.util.Map<String, Object>> rows = TestPages.rows(input);
      java.util.Map<Object, Long> counts = new java.util.HashMap<>();
      java.util.Map<Object, Long> sums = new java.util.HashMap<>();
      for (java.util.Map<String, Object> row : rows) {
        if (row.containsKey("t")) {
          counts.merge(row.get("t"), 1L, Long::sum);
          if (row.get("n") instanceof Long n) {
            sums.merge(row.get("t"), n, Long::sum);
          }
        }
      }
      List<java.util.Map<String, Object>> whole =
          TestPages.rows(onPages("eventstats count AS c, sum(n) AS s by t", input));
      List<java.util.Map<String, Object>> running =
          TestPages.rows(onPages("streamstats count AS c, sum(n) AS s by t", input));
      assertThat(whole).as("seed %d", seed).hasSameSizeAs(rows);
      assertThat(running).as("seed %d", seed).hasSameSizeAs(rows);
      java.util.Map<Object, Long> countsSoFar = new java.util.HashMap<>();
      java.util.Map<Object, Long> sumsSoFar = new java.util.HashMap<>();
      for (int i = 0; i < rows.size(); i++) {
        java.util.Map<String, Object> row = rows.get(i);
        for (java.util.Map<String, Object> answer : List.of(whole.get(i), running.get(i))) {
          for (String field : List.of("_time", "n", "d", "t", "mv", "extra")) {
            assertThat(answer.get(field))
                .as("seed %d row %d %s", seed, i, field)
                .isEqualTo(row.get(field));
          }
        }
        Object t = row.get("t");
        if (t == null) {
          continue;
        }
        countsSoFar.merge(t, 1L, Long::sum);
        if (row.get("n") instanceof Long n) {
          sumsSoFar.merge(t, n, Long::sum);
        }
        assertThat(whole.get(i).get("c")).as("seed %d row %d", seed, i).isEqualTo(counts.get(t));
        assertThat(whole.get(i).get("s")).as("seed %d row %d", seed, i).isEqualTo(sums.get(t));
        assertThat(running.get(i).get("c"))
            .as("seed %d row %d", seed, i)
            .isEqualTo(countsSoFar.get(t));
        assertThat(running.get(i).get("s"))
            .as("seed %d row %d", seed, i)
            .isEqualTo(sumsSoFar.get(t));
      }
    }
  }

  @Test
  void eventStatsCountsWhatItHoldsAndReleasesIt() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    Evaluator evaluator =
        new Evaluator(Instant.parse("2026-01-05T00:00:00Z"), ZoneOffset.UTC)
            .withResources(new SearchResources(account, () -> false, w -> {}));
    List<Command> parsed = parse("eventstats count by t");
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(parsed, evaluator, out::add, new StageStats(List.of("eventstats")), 0, 16);
    for (Page page : TimedRandomPages.of(new Random(7), false)) {
      reduce.add(page);
    }
    assertThat(account.used()).as("pages held").isPositive();
    reduce.finish();
    reduce.close();
    assertThat(account.used()).as("released").isZero();
    assertThat(out).isNotEmpty();
  }

  private static List<Command> parse(String commands) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | " + commands);
    return parsed.commands().subList(1, parsed.commands().size());
  }

  private static List<Page> onPages(String commands, List<Page> input) {
    List<Command> parsed = parse(commands);
    assertThat(ReduceCoverage.supports(parsed)).as(commands).isTrue();
    List<Page> out = new ArrayList<>();
    PageReduce reduce =
        new PageReduce(
            parsed,
            EVALUATOR,
            out::add,
            new StageStats(parsed.stream().map(Command::name).toList()),
            0,
            16);
    for (Page page : input) {
      if (!reduce.add(page)) {
        break;
      }
    }
    reduce.finish();
    reduce.close();
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }

  private static List<Page> onRows(String commands, List<Page> input) {
    List<Page> out = new ArrayList<>();
    RowSink sink = Pipelines.build(parse(commands), new PageCollector(16, out::add), EVALUATOR);
    feed:
    for (Page page : input) {
      for (Row row : PluginOperators.rows(page)) {
        if (!sink.accept(row)) {
          break feed;
        }
      }
    }
    sink.finish();
    List<Row> rows = new ArrayList<>();
    out.forEach(page -> rows.addAll(PluginOperators.rows(page)));
    return rows.isEmpty() ? List.of() : List.of(PageCollector.toPage(rows));
  }
}
