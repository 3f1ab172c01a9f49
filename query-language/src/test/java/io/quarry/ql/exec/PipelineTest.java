package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PipelineTest {
  static List<Page> run(String query, List<Row> rows, int pageSize) {
    Query parsed = new Parser(CommandRegistry.builtIns()).parse(query);
    List<Page> pages = new ArrayList<>();
    RowSink sink =
        Pipelines.build(
            parsed.commands().subList(1, parsed.commands().size()),
            new PageCollector(pageSize, pages::add));
    for (Row row : rows) {
      if (!sink.accept(row)) {
        break;
      }
    }
    sink.finish();
    return pages;
  }

  static List<List<Object>> table(List<Page> pages) {
    List<List<Object>> table = new ArrayList<>();
    for (Page page : pages) {
      for (int p = 0; p < page.positionCount(); p++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < page.schema().size(); c++) {
          row.add(PluginOperators.value(page.block(c), p)); // a multivalue as a list
        }
        table.add(row);
      }
    }
    return table;
  }

  @Test
  void statsGroupsSortsAndTypesItsColumns() {
    List<Row> rows =
        List.of(
            TestRow.of("a", "status", "200", "bytes", "100", "ip", "1"),
            TestRow.of("b", "status", "404", "bytes", "50", "ip", "1"),
            TestRow.of("c", "status", "200", "bytes", "2.5", "ip", "2"),
            TestRow.of("d", "status", "1000", "ip", "3"),
            TestRow.of("e", "bytes", "7"));
    List<Page> pages =
        run(
            "* | stats count, sum(bytes), avg(bytes), max(bytes) AS biggest, dc(ip) by status",
            rows,
            1024);
    assertThat(pages).hasSize(1);
    Page page = pages.get(0);
    assertThat(page.schema().columns())
        .extracting(c -> c.name() + ":" + c.type())
        .containsExactly(
            "status:STRING",
            "count:LONG",
            "sum(bytes):DOUBLE",
            "avg(bytes):DOUBLE",
            "biggest:DOUBLE",
            "dc(ip):LONG");
    assertThat(table(pages))
        .containsExactly(
            List.of("200", 2L, 102.5, 51.25, 100.0, 2L),
            List.of("404", 1L, 50.0, 50.0, 50.0, 1L),
            java.util.Arrays.asList("1000", 1L, null, null, null, 1L));
  }

  @Test
  void aStatsColumnHasOneTypeOnEveryPage() {
    List<Row> rows =
        List.of(
            TestRow.of("a", "g", "a", "n", 4L),
            TestRow.of("b", "g", "a", "n", 6L),
            TestRow.of("c", "g", "b", "n", 4L),
            TestRow.of("d", "g", "b", "n", 5L));
    // the median of a is 5 (whole), of b 4.5: one row per page, both pages say DOUBLE
    List<Page> pages = run("* | stats median(n) AS m, count by g", rows, 1);
    assertThat(pages).hasSize(2);
    for (Page page : pages) {
      assertThat(page.schema().column(1).type()).isEqualTo(DataType.DOUBLE);
      assertThat(page.schema().column(2).type()).isEqualTo(DataType.LONG);
    }
    assertThat(table(pages)).containsExactly(List.of("a", 5.0, 2L), List.of("b", 4.5, 2L));
  }

  @Test
  void statsFunctionsComputeExactlyAndMergeAcrossPartials() {
    List<Row> rows = new ArrayList<>();
    long[] bytes = {10, 20, 30, 40, 1000, 20};
    String[] users = {"bob", "amy", "bob", "cid", "amy", "bob"};
    for (int i = 0; i < bytes.length; i++) {
      rows.add(
          TestRow.of(
              "e" + i,
              "bytes",
              String.valueOf(bytes[i]),
              "user",
              users[i],
              "_time",
              1_000_000L * (100 - i))); // newest first, as events arrive
    }
    String query =
        "* | stats median(bytes), perc75(bytes) AS p75, p0(bytes), exactperc100(bytes),"
            + " range(bytes), var(bytes), stdevp(bytes), mode(user), values(user),"
            + " list(user), first(user), last(user), earliest(bytes), latest(bytes)";
    List<List<Object>> whole = table(run(query, rows, 1024));
    assertThat(whole).hasSize(1);
    List<Object> row = whole.get(0);
    assertThat(row.subList(0, 5)).containsExactly(25L, 37.5, 10L, 1000L, 990L);
    assertThat((Double) row.get(5))
        .isCloseTo(794_333.3333 / 5, org.assertj.core.data.Offset.offset(1e-3));
    assertThat((Double) row.get(6))
        .isCloseTo(Math.sqrt(794_333.3333 / 6), org.assertj.core.data.Offset.offset(1e-3));
    assertThat(row.subList(7, row.size()))
        .containsExactly(
            "bob",
            List.of("amy", "bob", "cid"),
            List.of("bob", "amy", "bob", "cid", "amy", "bob"),
            "bob",
            "bob",
            "20",
            "10");

    io.quarry.ql.ast.StatsCommand stats =
        (io.quarry.ql.ast.StatsCommand)
            new Parser(CommandRegistry.builtIns()).parse(query).commands().get(1);
    List<Page> pages = new ArrayList<>();
    StatsOperator total = new StatsOperator(stats, new PageCollector(1024, pages::add));
    StatsOperator a = StatsOperator.partial(stats);
    StatsOperator b = StatsOperator.partial(stats);
    for (int i = 0; i < rows.size(); i++) {
      (i % 2 == 0 ? a : b).accept(rows.get(i));
    }
    total.merge(a);
    total.merge(b);
    total.finish();
    List<Object> merged = table(pages).get(0);
    assertThat(merged.subList(0, 5)).isEqualTo(row.subList(0, 5));
    assertThat((Double) merged.get(5))
        .isCloseTo((Double) row.get(5), org.assertj.core.data.Offset.offset(1e-6));
    assertThat(merged.get(7)).isEqualTo("bob");
    assertThat(merged.get(8)).isEqualTo(row.get(8));
    assertThat(merged.subList(10, merged.size())).isEqualTo(row.subList(10, row.size()));
  }

  @Test
  void partialStatsMergedEqualOneStatsOverAllRows() {
    String query =
        "* | stats count, sum(bytes), avg(bytes), min(bytes), max(bytes), dc(ip) by status";
    Random random = new Random(7);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      rows.add(
          TestRow.of(
              "r" + i,
              "status",
              String.valueOf(200 + random.nextInt(4)),
              "bytes",
              random.nextInt(10) == 0 ? "-" : String.valueOf(random.nextInt(5000)),
              "ip",
              "10.0.0." + random.nextInt(40)));
    }
    List<List<Object>> whole = table(run(query, rows, 1024));

    io.quarry.ql.ast.StatsCommand stats =
        (io.quarry.ql.ast.StatsCommand)
            new Parser(CommandRegistry.builtIns()).parse(query).commands().get(1);
    List<Page> pages = new ArrayList<>();
    StatsOperator total = new StatsOperator(stats, new PageCollector(1024, pages::add));
    List<StatsOperator> partials = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      partials.add(StatsOperator.partial(stats));
    }
    for (Row row : rows) {
      partials.get(random.nextInt(partials.size())).accept(row);
    }
    partials.forEach(total::merge);
    total.finish();
    assertThat(table(pages)).isEqualTo(whole);
  }

  @Test
  void statsWithoutGroupsAlwaysAnswersOneRow() {
    assertThat(table(run("* | stats count", List.of(), 10))).containsExactly(List.of(0L));
  }

  @Test
  void headStopsTheProducerAndFiltersApply() {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      rows.add(TestRow.of("event " + i, "n", (long) i));
    }
    Query parsed = new Parser(CommandRegistry.builtIns()).parse("* | search n>=50 | head 3");
    List<Page> pages = new ArrayList<>();
    RowSink sink =
        Pipelines.build(parsed.commands().subList(1, 3), new PageCollector(2, pages::add));
    int offered = 0;
    for (Row row : rows) {
      offered++;
      if (!sink.accept(row)) {
        break;
      }
    }
    sink.finish();
    assertThat(offered).isEqualTo(53);
    assertThat(pages).extracting(Page::positionCount).containsExactly(2, 1);
    assertThat(table(pages)).containsExactly(List.of(50L), List.of(51L), List.of(52L));
  }

  @Test
  void randomPageSizesGiveTheSameRows() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      rows.add(TestRow.of("r", "k", "k" + random.nextInt(40)));
    }
    List<List<Object>> expected = table(run("* | stats count by k", rows, 1_000_000));
    int pageSize = 1 + random.nextInt(17);
    assertThat(table(run("* | stats count by k", rows, pageSize)))
        .as("seed %d page size %d", seed, pageSize)
        .isEqualTo(expected);
    assertThat(run("* | stats count by k", rows, pageSize).get(0).schema().column(1).type())
        .isEqualTo(DataType.LONG);
  }
}
