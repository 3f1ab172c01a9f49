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
          row.add(page.block(c).getObject(p));
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
