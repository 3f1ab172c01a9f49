package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.engine.aggregation.TopAggregation;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code top}/{@code rare} on pages ({@link TopAggregation}) against a hand-computed answer and
 * against the row operator ({@link TopOperator}) on random rows (multivalued and missing fields,
 * numbers and text, {@code _time}) cut into random pages and partials merged in random order: the
 * answer must not depend on the engine, the page sizes or the split.
 */
class TopAggregationTest {
  private static TopCommand top(String text) {
    return (TopCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private static List<Map<String, Object>> answer(PageAggregator operator) {
    operator.finish();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page = operator.getOutput(); page != null; page = operator.getOutput()) {
      for (Row row : PluginOperators.rows(page)) {
        rows.add(HashAggregationTest.asMap(row));
      }
    }
    assertThat(operator.isFinished()).isTrue();
    operator.close();
    return rows;
  }

  private static List<Map<String, Object>> rowEngine(String command, List<Row> input) {
    List<Page> out = new ArrayList<>();
    PageCollector collector = new PageCollector(10_000, out::add);
    TopOperator operator = new TopOperator(top(command), collector);
    input.forEach(operator::accept);
    operator.finish();
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page : out) {
      for (Row row : PluginOperators.rows(page)) {
        rows.add(HashAggregationTest.asMap(row));
      }
    }
    return rows;
  }

  @Test
  void countsCombinationsAsComputedByHand() {
    // ip: a twice, b once, a row without ip (not counted); status by ip
    List<Row> input =
        List.of(
            TestRow.of("1", "ip", "a", "status", 200L),
            TestRow.of("2", "ip", "b", "status", 404L),
            TestRow.of("3", "ip", "a", "status", 200L),
            TestRow.of("4", "status", 500L));
    TopAggregation top = new TopAggregation(top("top ip"), MemoryTracker.unbounded("top"), 10);
    top.addInput(HashAggregationTest.pages(input, List.of("ip", "status"), new Random(1)).get(0));
    assertThat(answer(top))
        .containsExactly(
            Map.of("ip", "a", "count", 2L, "percent", 66.666667),
            Map.of("ip", "b", "count", 1L, "percent", 33.333333));
  }

  @Test
  void answersAsTheRowOperator() {
    List<String> commands =
        List.of(
            "top ip",
            "rare ip",
            "top limit=3 status by ip",
            "rare limit=2 ip by status",
            "top ip, status",
            "top limit=0 bytes",
            "top status showcount=false",
            "top ip showperc=false countfield=c",
            "top ip percentfield=share by n",
            "top _time by status",
            "top n by ip, status",
            "rare status by _time");
    for (long seed = 0; seed < 6; seed++) {
      Random random = new Random(seed);
      List<Row> input = HashAggregationTest.randomRows(random, 400);
      for (String command : commands) {
        List<String> fields = PageAggregator.inputFields(top(command));
        PageAggregator total =
            PageAggregator.of(
                top(command),
                java.time.ZoneOffset.UTC,
                MemoryTracker.unbounded("top"),
                1 + random.nextInt(64));
        List<PageAggregator> partials = new ArrayList<>();
        for (Page page : HashAggregationTest.pages(input, fields, random)) {
          if (partials.isEmpty() || random.nextInt(4) == 0) {
            partials.add(total.newPartial());
          }
          partials.get(random.nextInt(partials.size())).addInput(page);
          if (random.nextInt(10) == 0) {
            total.merge(partials.get(random.nextInt(partials.size())));
          }
        }
        partials.forEach(total::merge);
        assertThat(answer(total))
            .as(command + " (seed " + seed + ")")
            .isEqualTo(rowEngine(command, input));
      }
    }
  }

  @Test
  void combinationsAreCountedAgainstTheSearchAndReleasedWhenClosed() {
    List<Row> input = HashAggregationTest.randomRows(new Random(1), 300);
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    PageAggregator top =
        PageAggregator.of(
            top("top n by ip"), java.time.ZoneOffset.UTC, new MemoryTracker(account, "top"), 16);
    for (Page page : HashAggregationTest.pages(input, List.of("ip", "n"), new Random(2))) {
      top.addInput(page);
    }
    assertThat(account.used()).isPositive();
    top.finish();
    while (top.getOutput() != null) {}
    top.close();
    assertThat(account.used()).isZero();

    MemoryAccount small = new MemoryAccount("search", 1_000);
    PageAggregator limited =
        PageAggregator.of(
            top("top n by ip"), java.time.ZoneOffset.UTC, new MemoryTracker(small, "top"), 16);
    assertThatThrownBy(
            () -> {
              for (Page page :
                  HashAggregationTest.pages(input, List.of("ip", "n"), new Random(3))) {
                limited.addInput(page);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("top");
  }
}
