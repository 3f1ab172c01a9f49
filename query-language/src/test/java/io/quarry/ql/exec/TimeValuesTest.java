package io.quarry.ql.exec;

import static io.quarry.ql.exec.PipelineTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code _time} read by any computation is epoch seconds (a whole number a long, else a double to
 * the microsecond), while a column named {@code _time} stays a timestamp. Every expected value is
 * worked out by hand from the rows below.
 */
class TimeValuesTest {
  /** 2026-01-07T00:00:00Z in epoch seconds. */
  private static final long T = 1_767_744_000L;

  private static final long MICROS = 1_000_000L;

  /** Whole seconds, newest first (as a time-ordered search hands them): T+2h, T+1h, T. */
  private static final List<Row> WHOLE =
      List.of(
          TestRow.of("r1", "id", "r1", "host", "a", "_time", (T + 7200) * MICROS),
          TestRow.of("r2", "id", "r2", "host", "b", "_time", (T + 3600) * MICROS),
          TestRow.of("r3", "id", "r3", "host", "a", "_time", T * MICROS));

  /** Sub-second times, newest first: T+1.123456 s, T+0.5 s, T. */
  private static final List<Row> FRACTIONS =
      List.of(
          TestRow.of("s1", "id", "s1", "host", "a", "_time", T * MICROS + 1_123_456),
          TestRow.of("s2", "id", "s2", "host", "a", "_time", T * MICROS + 500_000),
          TestRow.of("s3", "id", "s3", "host", "a", "_time", T * MICROS));

  private static final Evaluator EVALUATOR =
      new Evaluator(Instant.parse("2026-01-08T00:00:00Z"), ZoneOffset.UTC);

  /** The rows of a query's answer on the page engine, each as field -> values. */
  private static List<Map<String, List<Object>>> rows(String query, List<Row> input) {
    return values(PageRun.run(query, TestPages.pages(PipelineTest.cells(input), 2), 16, EVALUATOR));
  }

  /** Each position of the pages as its non-null fields' values. */
  private static List<Map<String, List<Object>>> values(List<Page> pages) {
    List<Map<String, List<Object>>> out = new ArrayList<>();
    for (Page page : pages) {
      for (int p = 0; p < page.positionCount(); p++) {
        Map<String, List<Object>> fields = new LinkedHashMap<>();
        for (int c = 0; c < page.schema().size(); c++) {
          List<Object> values = page.block(c).getValues(p);
          if (!values.isEmpty()) {
            fields.put(page.schema().column(c).name(), values);
          }
        }
        out.add(fields);
      }
    }
    return out;
  }

  /** The only value of {@code field} in the only row the query emits. */
  private static Object only(String query, List<Row> input, String field) {
    List<Map<String, List<Object>>> out = rows(query, input);
    assertThat(out).hasSize(1);
    List<Object> values = out.get(0).get(field);
    assertThat(values).as(field).hasSize(1);
    return values.get(0);
  }

  /** The values of {@code field}, one per emitted row (null where a row has none). */
  private static List<Object> column(String query, List<Row> input, String field) {
    List<Object> values = new ArrayList<>();
    for (Map<String, List<Object>> row : rows(query, input)) {
      List<Object> value = row.getOrDefault(field, List.of());
      values.add(value.isEmpty() ? null : value.size() == 1 ? value.get(0) : value);
    }
    return values;
  }

  private static final String EVERY_FUNCTION =
      "* | stats min(_time) AS min, max(_time) AS max, earliest(_time) AS earliest,"
          + " latest(_time) AS latest, first(_time) AS first, last(_time) AS last,"
          + " range(_time) AS range, values(_time) AS values, avg(_time) AS avg";

  @Test
  void everyStatsFunctionOverWholeSecondsAnswersEpochSeconds() {
    Map<String, List<Object>> row = rows(EVERY_FUNCTION, WHOLE).get(0);
    assertThat(row.get("min")).containsExactly(1_767_744_000L);
    assertThat(row.get("max")).containsExactly(1_767_751_200L);
    assertThat(row.get("earliest")).containsExactly(1_767_744_000L);
    assertThat(row.get("latest")).containsExactly(1_767_751_200L);
    assertThat(row.get("first")).containsExactly(1_767_751_200L); // the first row seen: newest
    assertThat(row.get("last")).containsExactly(1_767_744_000L);
    assertThat(row.get("range")).containsExactly(7200L);
    assertThat(row.get("values")).containsExactly("1767744000", "1767747600", "1767751200");
    assertThat(row.get("avg")).containsExactly(1_767_747_600.0); // (3T + 10800) / 3
  }

  @Test
  void everyStatsFunctionOverSubSecondTimesAnswersAFraction() {
    Map<String, List<Object>> row = rows(EVERY_FUNCTION, FRACTIONS).get(0);
    assertThat(row.get("min")).containsExactly(1_767_744_000L);
    assertThat(row.get("max")).containsExactly(1_767_744_001.123456);
    assertThat(row.get("earliest")).containsExactly(1_767_744_000L);
    assertThat(row.get("latest")).containsExactly(1_767_744_001.123456);
    assertThat(row.get("first")).containsExactly(1_767_744_001.123456);
    assertThat(row.get("last")).containsExactly(1_767_744_000L);
    assertThat(row.get("range")).containsExactly(1.123456); // to the microsecond
    assertThat(row.get("values"))
        .containsExactly("1767744000", "1767744000.5", "1767744001.123456");
    // (3T + 1.623456) / 3
    assertThat((Double) row.get("avg").get(0)).isCloseTo(1_767_744_000.541152, within(1e-6));
    assertThat(Values.toText(row.get("max").get(0))).isEqualTo("1767744001.123456");
  }

  @Test
  void theOtherFunctionsReadSecondsToo() {
    Map<String, List<Object>> row =
        rows(
                "* | stats sum(_time) AS sum, median(_time) AS median, perc50(_time) AS p50,"
                    + " mode(_time) AS mode, dc(_time) AS dc, list(_time) AS list,"
                    + " count(_time) AS count, stdev(_time) AS stdev",
                WHOLE)
            .get(0);
    assertThat(row.get("sum")).containsExactly(5_303_242_800L); // 3T + 10800
    assertThat(row.get("median")).containsExactly(1_767_747_600L);
    assertThat(row.get("p50")).containsExactly(1_767_747_600L);
    assertThat(row.get("mode")).containsExactly("1767751200"); // all once: the first seen
    assertThat(row.get("dc")).containsExactly(3L);
    assertThat(row.get("list")).containsExactly(1_767_751_200L, 1_767_747_600L, 1_767_744_000L);
    assertThat(row.get("count")).containsExactly(3L);
    assertThat(row.get("stdev")).containsExactly(3600.0); // deviations -3600, 0, 3600
  }

  @Test
  void groupedStatsOfSimpleFunctionsAnswerSecondsFromTheirStateArrays() {
    // one by-field and only count/sum/avg/min/max/range: each group's states side by side in arrays
    String query =
        "* | stats min(_time) AS min, max(_time) AS max, range(_time) AS range, avg(_time) AS avg,"
            + " count by host";
    assertThat(column(query, WHOLE, "min")).containsExactly(1_767_744_000L, 1_767_747_600L);
    assertThat(column(query, WHOLE, "max")).containsExactly(1_767_751_200L, 1_767_747_600L);
    assertThat(column(query, WHOLE, "range")).containsExactly(7200L, 0L);
    assertThat(column(query, WHOLE, "avg")).containsExactly(1_767_747_600.0, 1_767_747_600.0);
    assertThat(column(query, FRACTIONS, "max")).containsExactly(1_767_744_001.123456);
    assertThat(column(query, FRACTIONS, "range")).containsExactly(1.123456);
  }

  @Test
  void partialsMergedAnswerWhatOneOperatorAnswers() {
    for (String query :
        List.of(EVERY_FUNCTION, "* | stats min(_time), max(_time), range(_time) by host")) {
      HashAggregationOperator total =
          new HashAggregationOperator(
              (StatsCommand) PageRun.commands(query).get(0), MemoryTracker.unbounded("stats"), 16);
      HashAggregationOperator first = total.newPartial();
      HashAggregationOperator second = total.newPartial();
      first.addInput(TestPages.page(PipelineTest.cells(FRACTIONS.subList(0, 1))));
      second.addInput(TestPages.page(PipelineTest.cells(FRACTIONS.subList(1, 3))));
      total.merge(first);
      total.merge(second);
      total.finish();
      List<Page> pages = new ArrayList<>();
      for (Page page = total.getOutput(); page != null; page = total.getOutput()) {
        pages.add(page);
      }
      total.close();
      List<Map<String, List<Object>>> merged = values(pages);
      assertThat(merged).as(query).isEqualTo(rows(query, FRACTIONS));
    }
  }

  @Test
  void aggregateColumnsAreNumbersAndATimeColumnIsATimestamp() {
    Page page = run("* | stats min(_time), max(_time), count by host", FRACTIONS, 10).get(0);
    assertThat(page.schema().columns())
        .extracting(c -> c.name() + ":" + c.type())
        .containsExactly("host:STRING", "min(_time):LONG", "max(_time):DOUBLE", "count:LONG");
    Page byTime = run("* | stats count by _time", FRACTIONS, 10).get(0);
    assertThat(byTime.schema().column(0).type()).isEqualTo(DataType.TIMESTAMP);
    // an aggregation named _time is a time again
    Page latest = run("* | stats latest(_time) AS _time, count by host", FRACTIONS, 10).get(0);
    assertThat(latest.schema().column(1).name()).isEqualTo("_time");
    assertThat(latest.schema().column(1).type()).isEqualTo(DataType.TIMESTAMP);
    assertThat(((LongBlock) latest.block(1)).getLong(0)).isEqualTo(T * MICROS + 1_123_456);
    // an event's own _time column stays a timestamp
    Page events = run("* | table _time, id", WHOLE, 10).get(0);
    assertThat(events.schema().column(0).type()).isEqualTo(DataType.TIMESTAMP);
  }

  @Test
  void eventstatsAndStreamstatsAddSeconds() {
    assertThat(column("* | eventstats max(_time) AS newest by host", WHOLE, "newest"))
        .containsExactly(1_767_751_200L, 1_767_747_600L, 1_767_751_200L);
    // newest first: the running minimum falls
    assertThat(column("* | streamstats min(_time) AS oldest", FRACTIONS, "oldest"))
        .containsExactly(1_767_744_001.123456, 1_767_744_000.5, 1_767_744_000L);
    assertThat(column("* | eventstats earliest(_time) AS _time | table _time", FRACTIONS, "_time"))
        .containsExactly(T * MICROS, T * MICROS, T * MICROS);
  }

  @Test
  void timechartAndChartAggregateEachEventsOwnTime() {
    // all three events fall in the hour from T: the bucket is _time, the aggregations the events'
    String query =
        "* | timechart span=1h max(_time) AS newest, earliest(_time) AS oldest,"
            + " first(_time) AS first";
    Map<String, List<Object>> row = rows(query, FRACTIONS).get(0);
    assertThat(row.get("_time")).containsExactly(T * MICROS);
    assertThat(row.get("newest")).containsExactly(1_767_744_001.123456);
    assertThat(row.get("oldest")).containsExactly(1_767_744_000L);
    assertThat(row.get("first")).containsExactly(1_767_744_001.123456);
    assertThat(column("* | chart max(_time) over host", WHOLE, "max(_time)"))
        .containsExactly(1_767_751_200L, 1_767_747_600L);
    assertThat(column("* | chart count over _time", WHOLE, "_time"))
        .containsExactly(T * MICROS, (T + 3600) * MICROS, (T + 7200) * MICROS);
  }

  @Test
  void comparisonsReadSeconds() {
    assertThat(column("* | where _time > 1767744000.5", FRACTIONS, "id")).containsExactly("s1");
    assertThat(column("* | search _time>=1767744000.5", FRACTIONS, "id"))
        .containsExactly("s1", "s2");
    assertThat(column("* | search _time=1767744000", FRACTIONS, "id")).containsExactly("s3");
    assertThat(column("* | search _time!=1767747600", WHOLE, "id")).containsExactly("r1", "r3");
    assertThat(column("* | eval t=_time | where t < 1767744001", FRACTIONS, "t"))
        .containsExactly(1_767_744_000.5, 1_767_744_000L);
  }

  @Test
  void renamesAndBinsToAnotherFieldAreSecondsAndBackToTimeAreTimes() {
    assertThat(column("* | rename _time AS t | table t", FRACTIONS, "t"))
        .containsExactly(1_767_744_001.123456, 1_767_744_000.5, 1_767_744_000L);
    assertThat(column("* | eval t=_time + 60 | rename t AS _time | table _time", WHOLE, "_time"))
        .containsExactly((T + 7260) * MICROS, (T + 3660) * MICROS, (T + 60) * MICROS);
    assertThat(column("* | bin _time span=1h AS hour | table hour", WHOLE, "hour"))
        .containsExactly(T + 7200, T + 3600, T);
    assertThat(column("* | bin _time span=1h | table _time", FRACTIONS, "_time"))
        .containsExactly(T * MICROS, T * MICROS, T * MICROS);
    assertThat(
            column("* | eval t=_time | bin t span=1h AS _time | table _time", FRACTIONS, "_time"))
        .containsExactly(T * MICROS, T * MICROS, T * MICROS);
    assertThat(column("* | stats max(_time) AS t | rename t AS _time", WHOLE, "_time"))
        .containsExactly((T + 7200) * MICROS);
  }

  @Test
  void topAndFieldsummaryOfTime() {
    Page top = run("* | top _time", WHOLE, 10).get(0);
    assertThat(top.schema().column(0).type()).isEqualTo(DataType.TIMESTAMP);
    List<Map<String, List<Object>>> summary = rows("* | fieldsummary", FRACTIONS);
    Map<String, List<Object>> time =
        summary.stream().filter(r -> r.get("field").equals(List.of("_time"))).findFirst().get();
    assertThat(time.get("min")).containsExactly(1_767_744_000.0);
    assertThat(time.get("max")).containsExactly(1_767_744_001.123456);
    assertThat((String) time.get("values").get(0)).contains("\"value\":\"1767744000.5\"");
  }

  @Test
  void doublesAreWrittenInPlainDecimal() {
    assertThat(Values.toText(1_767_744_001.123456)).isEqualTo("1767744001.123456");
    assertThat(Values.toText(1_767_744_000.0)).isEqualTo("1767744000");
    assertThat(Values.toText(1.0e20)).isEqualTo("100000000000000000000");
    assertThat(Values.toText(0.25)).isEqualTo("0.25");
    assertThat(Values.toText(1.5e-8)).isEqualTo("1.5E-8");
    assertThat(Values.toText(Double.NaN)).as("Splunk's text").isEqualTo("nan");
    assertThat(Values.toText(Double.POSITIVE_INFINITY)).isEqualTo("inf");
    assertThat(Values.toText(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
  }
}
