package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.parser.Parser;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code timechart} and {@code chart} on pages ({@link ChartAggregation}) against the row operator
 * ({@link TimechartOperator}) on random rows (multivalued and missing split fields, numbers and
 * text) cut into random pages and partials merged in random order, over the pivot's options: span
 * chosen from {@code bins}, {@code limit}/{@code useother}/{@code otherstr}, {@code usenull}, the
 * where clause, binned over- and split fields, {@code cont}, {@code per_*}; and a preview while the
 * input goes on.
 */
class ChartAggregationTest {
  private static Command command(String text) {
    return new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  private static List<Map<String, Object>> rows(List<Page> pages) {
    List<Map<String, Object>> rows = new ArrayList<>();
    for (Page page : pages) {
      for (Row row : PluginOperators.rows(page)) {
        rows.add(HashAggregationTest.asMap(row));
      }
    }
    return rows;
  }

  private static List<Map<String, Object>> rowEngine(String text, List<Row> input) {
    List<Page> out = new ArrayList<>();
    PageCollector collector = new PageCollector(10_000, out::add);
    Aggregator operator =
        (Aggregator)
            Pipelines.operator(
                command(text), collector, new Evaluator(java.time.Instant.EPOCH, ZoneOffset.UTC));
    input.forEach(operator::accept);
    operator.finish();
    return rows(out);
  }

  private static List<Map<String, Object>> pageEngine(
      String text, List<Row> input, Random random, boolean preview) {
    Command command = command(text);
    assertThat(PageAggregator.supports(command)).as(text).isTrue();
    PageAggregator total =
        PageAggregator.of(
            command, ZoneOffset.UTC, MemoryTracker.unbounded("chart"), 1 + random.nextInt(64));
    List<PageAggregator> partials = new ArrayList<>();
    for (Page page :
        HashAggregationTest.pages(input, PageAggregator.inputFields(command), random)) {
      if (partials.isEmpty() || random.nextInt(4) == 0) {
        partials.add(total.newPartial());
      }
      partials.get(random.nextInt(partials.size())).addInput(page);
      if (random.nextInt(10) == 0) {
        total.merge(partials.get(random.nextInt(partials.size())));
        if (preview) {
          total.snapshot(); // a preview leaves the groups as they were
        }
      }
    }
    partials.forEach(total::merge);
    total.finish();
    List<Page> out = new ArrayList<>();
    for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
      out.add(page);
    }
    assertThat(total.isFinished()).isTrue();
    total.close();
    return rows(out);
  }

  @Test
  void answersAsTheRowOperator() {
    List<String> commands =
        List.of(
            "timechart span=1m count",
            "timechart count by ip",
            "timechart bins=4 avg(bytes) AS mean, max(n) by status",
            "timechart span=30s limit=2 count by ip",
            "timechart span=30s limit=2 useother=false count by ip",
            "timechart span=30s usenull=false otherstr=rest limit=1 sum(n) by ip",
            "timechart span=1m dc(ip) AS ips, per_second(n) AS rate",
            "timechart span=20s cont=false count by status",
            "timechart span=1m count by n bins=3",
            "timechart span=1m count by n span=10",
            "timechart span=1m count by ip where max in top2",
            "timechart span=15s first(n) AS f, latest(bytes) AS l",
            "chart count over status by ip",
            "chart avg(n) over ip",
            "chart count by status, ip",
            "chart count over n span=25 by status",
            "chart count over n bins=4",
            "chart cont=false count over n span=10",
            "chart limit=1 useother=false values(status) AS s over ip by status",
            "chart sep=_ count, sum(n) over status by ip");
    for (long seed = 0; seed < 4; seed++) {
      List<Row> input = HashAggregationTest.randomRows(new Random(seed), 300);
      for (String command : commands) {
        List<Map<String, Object>> expected = rowEngine(command, input);
        assertThat(expected).as(command).isNotEmpty();
        assertThat(pageEngine(command, input, new Random(seed), seed % 2 == 1))
            .as(command + " (seed " + seed + ")")
            .isEqualTo(expected);
      }
    }
  }

  @Test
  void groupsAreReleasedWhenClosed() {
    MemoryAccount account = new MemoryAccount("search", Long.MAX_VALUE);
    PageAggregator chart =
        PageAggregator.of(
            command("timechart bins=3 limit=1 dc(n) by ip"),
            ZoneOffset.UTC,
            new MemoryTracker(account, "timechart"),
            8);
    List<Row> input = HashAggregationTest.randomRows(new Random(5), 300);
    for (Page page : HashAggregationTest.pages(input, List.of("_time", "ip", "n"), new Random(6))) {
      chart.addInput(page);
    }
    assertThat(account.used()).isPositive();
    chart.finish();
    while (chart.getOutput() != null) {}
    chart.close();
    assertThat(account.used()).isZero();
  }
}
