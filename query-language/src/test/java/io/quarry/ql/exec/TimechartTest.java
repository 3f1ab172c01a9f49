package io.quarry.ql.exec;

import static io.quarry.ql.exec.PipelineTest.run;
import static io.quarry.ql.exec.PipelineTest.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Span;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** bin and timechart: spans, pivoting, filling, OTHER and NULL series, chosen spans. */
class TimechartTest {
  private static final long HOUR = 3_600_000_000L;
  private static final long T0 = Instant.parse("2026-01-07T00:00:00Z").toEpochMilli() * 1000;

  /** Events at the given minutes after T0 with a status each (null: no status). */
  private static List<Row> events(long[] minutes, String[] statuses) {
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < minutes.length; i++) {
      rows.add(
          statuses[i] == null
              ? TestRow.of("e" + i, "_time", T0 + minutes[i] * 60_000_000L, "bytes", (long) i)
              : TestRow.of(
                  "e" + i,
                  "_time",
                  T0 + minutes[i] * 60_000_000L,
                  "status",
                  statuses[i],
                  "bytes",
                  (long) i));
    }
    return rows;
  }

  private static final List<Row> ROWS =
      events(
          new long[] {0, 10, 70, 190, 200, 205},
          new String[] {"200", "404", "200", "500", null, "200"});

  @Test
  void spansFloorTimesInUtc() {
    Span hour = Span.parse("1h").orElseThrow();
    assertThat(hour.floor(T0 + 90 * 60_000_000L, ZoneOffset.UTC)).isEqualTo(T0 + HOUR);
    Span week = Span.parse("1w").orElseThrow();
    // 2026-01-07 is a Wednesday; its week starts on Sunday 2026-01-04
    assertThat(week.floor(T0, ZoneOffset.UTC))
        .isEqualTo(Instant.parse("2026-01-04T00:00:00Z").toEpochMilli() * 1000);
    Span month = Span.parse("1mon").orElseThrow();
    assertThat(month.floor(T0, ZoneOffset.UTC))
        .isEqualTo(Instant.parse("2026-01-01T00:00:00Z").toEpochMilli() * 1000);
    assertThat(Span.parse("0h")).isEmpty();
    assertThat(Span.parse("5x")).isEmpty();
  }

  @Test
  void binReplacesTimesAndNumbers() {
    assertThat(table(run("* | bin _time span=1h | stats count by _time", ROWS, 100)))
        .containsExactly(List.of(T0, 2L), List.of(T0 + HOUR, 1L), List.of(T0 + 3 * HOUR, 3L));
    assertThat(table(run("* | bin bytes span=2 AS range | table range", ROWS, 100)))
        .containsExactly(
            List.of("0-2"),
            List.of("0-2"),
            List.of("2-4"),
            List.of("2-4"),
            List.of("4-6"),
            List.of("4-6"));
  }

  @Test
  void timechartPivotsSeriesAndFillsEmptyBuckets() {
    List<Page> pages = run("* | timechart span=1h count by status", ROWS, 100);
    assertThat(pages.get(0).schema().columns())
        .extracting(c -> c.name() + ":" + c.type())
        .containsExactly("_time:TIMESTAMP", "200:LONG", "404:LONG", "500:LONG", "NULL:LONG");
    assertThat(table(pages))
        .containsExactly(
            List.of(T0, 1L, 1L, 0L, 0L),
            List.of(T0 + HOUR, 1L, 0L, 0L, 0L),
            List.of(T0 + 2 * HOUR, 0L, 0L, 0L, 0L),
            List.of(T0 + 3 * HOUR, 1L, 0L, 1L, 1L));
    assertThat(table(run("* | timechart span=1h usenull=f limit=1 count by status", ROWS, 100)))
        .as("the biggest series is kept, the rest is OTHER")
        .containsExactly(
            List.of(T0, 1L, 1L),
            List.of(T0 + HOUR, 1L, 0L),
            List.of(T0 + 2 * HOUR, 0L, 0L),
            List.of(T0 + 3 * HOUR, 1L, 1L));
    assertThat(table(run("* | timechart span=2h max(bytes), avg(bytes)", ROWS, 100)))
        .containsExactly(List.of(T0, 2L, 1.0), List.of(T0 + 2 * HOUR, 5L, 4.0));
    assertThat(table(run("* | timechart span=1h sum(bytes)", ROWS, 100)).get(2))
        .containsExactly(T0 + 2 * HOUR, null);
  }

  @Test
  void withoutASpanTheBucketsFitBins() {
    // 205 minutes of data: at most 5 buckets means 1-hour buckets
    assertThat(table(run("* | timechart bins=5 count", ROWS, 100)))
        .containsExactly(
            List.of(T0, 2L),
            List.of(T0 + HOUR, 1L),
            List.of(T0 + 2 * HOUR, 0L),
            List.of(T0 + 3 * HOUR, 3L));
    assertThat(table(run("* | timechart count", ROWS, 100)).get(0))
        .as("default 100 bins: 5-minute buckets")
        .isEqualTo(Arrays.asList(T0, 1L));
  }

  @Test
  void chartPivotsOverAFieldInValueOrder() {
    List<Page> pages = run("* | chart count over status by host", withHosts(), 100);
    assertThat(pages.get(0).schema().columns())
        .extracting(c -> c.name())
        .containsExactly("status", "a", "b");
    assertThat(table(pages))
        .containsExactly(List.of("200", 2L, 1L), List.of("404", 0L, 1L), List.of("500", 1L, 0L));
    assertThat(table(run("* | chart max(bytes) by status, host", withHosts(), 100)).get(0))
        .containsExactly("200", 2L, 5L);
    assertThat(table(run("* | chart count by host", withHosts(), 100)))
        .containsExactly(List.of("a", 3L), List.of("b", 2L));
  }

  /** {@link #ROWS} less the one without a status, with hosts a, b, a, b, a. */
  private static List<Row> withHosts() {
    List<Row> rows = new ArrayList<>();
    String[] hosts = {"a", "b", "a", "b", "a"};
    String[] statuses = {"200", "404", "200", "200", "500"};
    long[] bytes = {0, 1, 2, 5, 4};
    for (int i = 0; i < hosts.length; i++) {
      rows.add(TestRow.of("e" + i, "host", hosts[i], "status", statuses[i], "bytes", bytes[i]));
    }
    return rows;
  }

  @Test
  void errors() {
    Parser parser = new Parser(CommandRegistry.builtIns());
    assertThatThrownBy(() -> parser.parse("* | timechart span=5x count"))
        .hasMessageContaining("'5x' is not a span");
    assertThatThrownBy(() -> parser.parse("* | timechart span=10 count"))
        .hasMessageContaining("timechart spans are times");
    assertThatThrownBy(() -> parser.parse("* | bin span=1h")).hasMessageContaining("field to bin");
    assertThatThrownBy(() -> parser.parse("* | chart count"))
        .hasMessageContaining("'over' or 'by'");
    assertThatThrownBy(() -> parser.parse("* | timechart count by a, b"))
        .hasMessageContaining("timechart splits by one field");
  }
}
