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

  @Test
  void aggregatorsWithoutAPreviewSayNo() {
    Aggregator timechart =
        (Aggregator)
            Pipelines.operator(
                new Parser(CommandRegistry.builtIns())
                    .parse("* | timechart span=1h count")
                    .commands()
                    .get(1),
                new Collect(),
                new Evaluator(java.time.Instant.EPOCH, java.time.ZoneOffset.UTC));
    assertThat(timechart.snapshot(new Collect())).isFalse();
  }
}
