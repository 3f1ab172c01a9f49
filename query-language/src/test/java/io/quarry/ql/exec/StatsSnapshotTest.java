package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A live preview of a running aggregation: a snapshot emits what finish would, and keeps state. */
class StatsSnapshotTest {
  private static final class Collect implements RowSink {
    final List<String> rows = new ArrayList<>();
    boolean finished;

    @Override
    public boolean accept(Row row) {
      rows.add(row.values("host") + "=" + row.values("count"));
      return true;
    }

    @Override
    public void finish() {
      finished = true;
    }
  }

  private static StatsCommand stats(String text) {
    return (StatsCommand)
        new Parser(CommandRegistry.builtIns()).parse("* | " + text).commands().get(1);
  }

  @Test
  void snapshotThenMoreRowsThenFinish() {
    Collect end = new Collect();
    StatsOperator total = new StatsOperator(stats("stats count by host"), end);
    Aggregator partial = total.newPartial();
    partial.accept(TestRow.of("e1", "host", "a"));
    partial.accept(TestRow.of("e2", "host", "b"));
    total.merge(partial);

    Collect preview = new Collect();
    assertThat(total.snapshot(preview)).isTrue();
    assertThat(preview.rows).containsExactly("[a]=[1]", "[b]=[1]");
    assertThat(preview.finished).isTrue();
    assertThat(end.rows).isEmpty();

    Aggregator later = total.newPartial();
    later.accept(TestRow.of("e3", "host", "a"));
    total.merge(later);
    total.finish();
    assertThat(end.rows).containsExactly("[a]=[2]", "[b]=[1]");
    assertThat(end.finished).isTrue();
  }

  @Test
  void snapshotOfNothingWithoutByIsOneRowOfZero() {
    Collect end = new Collect();
    StatsOperator total = new StatsOperator(stats("stats count"), end);
    Collect preview = new Collect();
    total.snapshot(preview);
    assertThat(preview.rows).containsExactly("[]=[0]");
    total.finish();
    assertThat(end.rows).containsExactly("[]=[0]");
  }

  @Test
  void topSnapshotKeepsItsCounts() {
    Collect end = new Collect();
    Aggregator top =
        (Aggregator)
            Pipelines.operator(
                new Parser(CommandRegistry.builtIns())
                    .parse("* | top limit=1 host")
                    .commands()
                    .get(1),
                end,
                new Evaluator(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC));
    Aggregator partial = top.newPartial();
    partial.accept(TestRow.of("e1", "host", "a"));
    top.merge(partial);
    Collect preview = new Collect();
    assertThat(top.snapshot(preview)).isTrue();
    assertThat(preview.rows).containsExactly("[a]=[1]");
    Aggregator later = top.newPartial();
    later.accept(TestRow.of("e2", "host", "b"));
    later.accept(TestRow.of("e3", "host", "b"));
    top.merge(later);
    top.finish();
    assertThat(end.rows).containsExactly("[b]=[2]");
  }

  /** Collects whole rows as text: every field, in order. */
  private static final class Wide implements RowSink {
    final List<String> rows = new ArrayList<>();

    @Override
    public boolean accept(Row row) {
      StringBuilder text = new StringBuilder();
      for (String field : row.fieldNames()) {
        text.append(field).append('=').append(row.values(field)).append(' ');
      }
      rows.add(text.toString().strip());
      return true;
    }

    @Override
    public void finish() {}
  }

  private static Aggregator aggregator(String command, RowSink downstream) {
    return (Aggregator)
        Pipelines.operator(
            new Parser(CommandRegistry.builtIns()).parse("* | " + command).commands().get(1),
            downstream,
            new Evaluator(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC));
  }

  private static final long HOUR = 3_600_000_000L;

  @Test
  void timechartAndChartPreviewFromACopyOfTheirBuckets() {
    for (String command :
        List.of(
            "timechart span=1h limit=1 useother=true count by host",
            "timechart count by host",
            "chart count over host by status")) {
      Wide end = new Wide();
      Wide alone = new Wide();
      Aggregator total = aggregator(command, end);
      Aggregator reference = aggregator(command, alone); // one operator fed everything
      List<TestRow> first =
          List.of(
              TestRow.of("e1", "_time", 0L, "host", "a", "status", "200"),
              TestRow.of("e2", "_time", HOUR, "host", "b", "status", "500"),
              TestRow.of("e3", "_time", HOUR + 5, "host", "b", "status", "200"));
      Aggregator partial = total.newPartial();
      first.forEach(partial::accept);
      total.merge(partial);
      first.forEach(reference::accept);

      Wide preview = new Wide();
      assertThat(total.snapshot(preview)).isTrue();
      Wide expectedPreview = new Wide();
      Aggregator soFar = aggregator(command, expectedPreview);
      first.forEach(soFar::accept);
      soFar.finish();
      assertThat(preview.rows).as(command).isEqualTo(expectedPreview.rows).isNotEmpty();
      assertThat(end.rows).isEmpty();

      // a second preview sees the same; the state was not consumed or regrouped
      Wide again = new Wide();
      total.snapshot(again);
      assertThat(again.rows).isEqualTo(preview.rows);

      TestRow later = TestRow.of("e4", "_time", 2 * HOUR, "host", "a", "status", "200");
      Aggregator more = total.newPartial();
      more.accept(later);
      total.merge(more);
      reference.accept(later);
      total.finish();
      reference.finish();
      assertThat(end.rows).as(command).isEqualTo(alone.rows);
    }
  }
}
