package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Commands on the page engine against answers computed by hand: {@code stats} functions (typed
 * columns, exact percentiles, partials merged as the map/reduce split merges them), {@code head}
 * stopping its input, and the answer not depending on page sizes. {@link #run} and {@link #table}
 * serve the other hand-computed tests of this package.
 */
class PipelineTest {
  /**
   * {@code query}'s commands on the page engine ({@link PageRun}) over {@code rows} in pages of at
   * most {@code pageSize} positions, as the answer's pages are where a stage pages its own output.
   */
  static List<Page> run(String query, List<? extends Row> rows, int pageSize) {
    return PageRun.run(query, TestPages.pages(cells(rows), pageSize), pageSize);
  }

  /** Each row's fields and their values, as {@link PageRun#page} takes them. */
  static List<java.util.Map<String, List<Object>>> cells(List<? extends Row> rows) {
    List<java.util.Map<String, List<Object>>> cells = new ArrayList<>(rows.size());
    for (Row row : rows) {
      java.util.Map<String, List<Object>> values = new java.util.LinkedHashMap<>();
      for (String name : row.fieldNames()) {
        values.put(name, row.values(name));
      }
      cells.add(values);
    }
    return cells;
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

  /** The page engine's {@code stats} of {@code query}, to be fed partials and merged. */
  private static HashAggregationOperator aggregation(String query) {
    return new HashAggregationOperator(
        (io.quarry.ql.ast.StatsCommand) PageRun.commands(query).get(0),
        MemoryTracker.unbounded("stats"),
        1024);
  }

  private static List<Page> answer(HashAggregationOperator aggregation) {
    aggregation.finish();
    List<Page> pages = new ArrayList<>();
    for (Page page = aggregation.getOutput(); page != null; page = aggregation.getOutput()) {
      pages.add(page);
    }
    aggregation.close();
    return pages;
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

    HashAggregationOperator total = aggregation(query);
    HashAggregationOperator a = total.newPartial();
    HashAggregationOperator b = total.newPartial();
    for (int i = 0; i < rows.size(); i++) {
      (i % 2 == 0 ? a : b).addInput(TestPages.page(cells(rows.subList(i, i + 1))));
    }
    total.merge(a);
    total.merge(b);
    List<Page> pages = answer(total);
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

    HashAggregationOperator total = aggregation(query);
    List<HashAggregationOperator> partials = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      partials.add(total.newPartial());
    }
    for (Row row : rows) {
      partials.get(random.nextInt(partials.size())).addInput(TestPages.page(cells(List.of(row))));
    }
    partials.forEach(total::merge);
    List<Page> pages = answer(total);
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
    // pages of two rows: the head has its three rows once the page of rows 52 and 53 is in
    List<Page> input = TestPages.pages(cells(rows), 2);
    List<Page> pages = new ArrayList<>();
    List<io.quarry.ql.ast.Command> commands = PageRun.commands("* | search n>=50 | head 3");
    PageReduce reduce =
        new PageReduce(
            commands,
            new io.quarry.ql.exec.Evaluator(java.time.Instant.now(), java.time.ZoneOffset.UTC),
            page -> pages.add(page),
            new StageStats(List.of("search", "head")),
            0,
            2);
    PagesSource source = PagesSource.of(input.iterator());
    reduce.pullFrom(source);
    reduce.run();
    reduce.close();
    assertThat(source.positions()).isEqualTo(54);
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
