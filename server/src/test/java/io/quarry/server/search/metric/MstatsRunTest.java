package io.quarry.server.search.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.metricstore.MetricScanVisitor;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link MstatsRun} fed directly: its memory is counted on the search's account. */
class MstatsRunTest {
  private static MstatsCommand mstats(String query) {
    return (MstatsCommand) new Parser(CommandRegistry.builtIns()).parse(query).commands().get(0);
  }

  @Test
  void groupsAndPercentileValuesCountAgainstTheSearchsMemory() {
    MemoryAccount account = new MemoryAccount("search", 64 * 1024);
    MstatsRun run =
        new MstatsRun(
            mstats("| mstats perc50(x) where index=m by host span=1s"),
            ZoneOffset.UTC,
            () -> false,
            account);
    MetricScanVisitor.Points points = run.series(SeriesKey.of("x", Map.of("host", "a")));
    assertThatThrownBy(
            () -> {
              for (long second = 0; second < 1_000_000; second++) {
                points.point(second * 1_000_000L, second);
              }
            })
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("mstats");

    MemoryAccount roomy = new MemoryAccount("search", 1 << 20);
    MstatsRun small =
        new MstatsRun(
            mstats("| mstats perc50(x) AS p where index=m"), ZoneOffset.UTC, () -> false, roomy);
    MetricScanVisitor.Points one = small.series(SeriesKey.of("x", Map.of()));
    for (int i = 0; i < 10_000; i++) {
      one.point(i, i);
    }
    assertThat(roomy.used()).isBetween(10_000L * Double.BYTES, 3L * 10_000 * Double.BYTES);
    assertThat(rows(small).get(0).values("p")).containsExactly(4999.5);
  }

  /** Months are not of one width: their buckets are kept by start, not by number. */
  @Test
  void monthSpans() {
    MstatsRun run =
        new MstatsRun(
            mstats("| mstats count(x) AS n sum(x) AS s where index=m span=1mon"),
            ZoneOffset.UTC,
            () -> false);
    MetricScanVisitor.Points points = run.series(SeriesKey.of("x", Map.of()));
    java.time.LocalDate day = java.time.LocalDate.of(2026, 1, 15);
    java.util.Map<Long, Long> expected = new java.util.TreeMap<>();
    while (day.isBefore(java.time.LocalDate.of(2026, 4, 10))) {
      long micros = day.atStartOfDay(ZoneOffset.UTC).toEpochSecond() * 1_000_000L;
      points.point(micros, 2);
      long month = day.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toEpochSecond() * 1_000_000L;
      expected.merge(month, 1L, Long::sum);
      day = day.plusDays(1);
    }
    java.util.List<PositionRow> rows = rows(run);
    assertThat(expected.values()).containsExactly(17L, 28L, 31L, 9L);
    assertThat(rows).hasSize(4);
    int r = 0;
    for (java.util.Map.Entry<Long, Long> month : expected.entrySet()) {
      assertThat(rows.get(r).values("_time")).containsExactly(month.getKey());
      assertThat(rows.get(r).values("n")).containsExactly(month.getValue());
      assertThat(rows.get(r).values("s")).containsExactly(2.0 * month.getValue());
      r++;
    }
  }

  /**
   * Span buckets far apart (here 10,000,000 one-second buckets between two points, then points
   * before both): the array of buckets gives way to a map, and every bucket still comes out once,
   * in time order.
   */
  @Test
  void sparseBucketsFarApart() {
    MstatsRun run =
        new MstatsRun(
            mstats("| mstats count(x) AS n max(x) AS m where index=m span=1s"),
            ZoneOffset.UTC,
            () -> false);
    MetricScanVisitor.Points points = run.series(SeriesKey.of("x", Map.of()));
    long[] seconds = {5, 5, 6, 10_000_005, 10_000_005, 10_000_007, 1, 20_000_000};
    for (int i = 0; i < seconds.length; i++) {
      points.point(seconds[i] * 1_000_000L + 250_000, i);
    }
    java.util.List<PositionRow> rows = rows(run);
    assertThat(rows.stream().map(row -> row.values("_time").get(0)).toList())
        .containsExactly(
            1_000_000L,
            5_000_000L,
            6_000_000L,
            10_000_005_000_000L,
            10_000_007_000_000L,
            20_000_000_000_000L);
    assertThat(rows.stream().map(row -> row.values("n").get(0)).toList())
        .containsExactly(1L, 2L, 1L, 2L, 1L, 1L);
    assertThat(rows.stream().map(row -> row.values("m").get(0)).toList())
        .containsExactly(6.0, 1.0, 2.0, 4.0, 5.0, 7.0);
  }

  /** The run's answer, each position of its pages read as a row (its non-null columns). */
  static java.util.List<PositionRow> rows(MstatsRun run) {
    java.util.List<PositionRow> rows = new java.util.ArrayList<>();
    for (io.quarry.plugin.api.data.Page page : run.pages(1024, Long.MAX_VALUE)) {
      for (int p = 0; p < page.positionCount(); p++) {
        rows.add(new PositionRow(page, p));
      }
    }
    return rows;
  }

  /** A position of a page read as a row: a column's values at the position. */
  record PositionRow(io.quarry.plugin.api.data.Page page, int position) {
    java.util.List<Object> values(String field) {
      return io.quarry.ql.exec.EvalValues.cell(page, field, position);
    }

    /** The columns that hold a value at the position, in page order. */
    java.util.List<String> fieldNames() {
      java.util.List<String> names = new java.util.ArrayList<>();
      for (int c = 0; c < page.schema().size(); c++) {
        if (!page.block(c).isNull(position)) {
          names.add(page.schema().column(c).name());
        }
      }
      return names;
    }
  }
}
