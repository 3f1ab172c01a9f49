package io.quarry.ql.exec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The job inspector's view of a pipeline: per stage, the rows it took in and gave out and the time
 * spent in it. Rows are counted exactly; time is sampled (one row in {@value #SAMPLE} is timed and
 * weighed accordingly, so probing costs little), plus every {@code finish} timed in full, which is
 * where aggregations emit. Probes of many threads (batch mode) add into the same counters; a probe
 * belongs to one thread.
 */
public final class StageStats {
  /** One row in this many is timed. */
  static final int SAMPLE = 32;

  private final List<String> names;
  private final LongAdder[] rowsIn;
  private final LongAdder[] nanos; // time including the stages a stage fed (probes, finishes)
  private final LongAdder[] ownNanos; // time of the stage alone (page stages, index counting)
  private final LongAdder rowsOut = new LongAdder();

  /** What one stage did; {@code time} is the time spent in it alone. */
  public record Stage(String name, long rowsIn, long rowsOut, Duration time) {}

  public StageStats(List<String> names) {
    this.names = List.copyOf(names);
    this.rowsIn = new LongAdder[names.size()];
    this.nanos = new LongAdder[names.size()];
    this.ownNanos = new LongAdder[names.size()];
    for (int i = 0; i < names.size(); i++) {
      rowsIn[i] = new LongAdder();
      nanos[i] = new LongAdder();
      ownNanos[i] = new LongAdder();
    }
  }

  /** Wraps the operator of stage {@code stage}. */
  public RowSink probe(int stage, RowSink operator) {
    return new Probe(stage, operator);
  }

  /**
   * Counts rows a stage took without them passing through its probe (a page stage, a count by a
   * scan), and the time the stage alone spent on them (not the stages after it).
   */
  public void counted(int stage, long rows, long nanos) {
    rowsIn[stage].add(rows);
    ownNanos[stage].add(nanos);
  }

  /** Adds time a stage spent including the stages it fed (an aggregation's emitting finish). */
  public void timed(int stage, long nanos) {
    this.nanos[stage].add(nanos);
  }

  /** Counts rows the last stage gave out without passing through {@link #end} (whole pages). */
  public void out(long rows) {
    rowsOut.add(rows);
  }

  /** Wraps the end of the pipeline, to count the rows the last stage gives out. */
  public RowSink end(RowSink end) {
    return new RowSink() {
      @Override
      public boolean accept(Row row) {
        rowsOut.increment();
        return end.accept(row);
      }

      @Override
      public void finish() {
        end.finish();
      }
    };
  }

  /**
   * The stages, each with the time spent in it alone: its own time as counted, plus its inclusive
   * time less the next stage's inclusive time (a page stage counts its own time only, so
   * subtracting a neighbour's would take the aggregation's time off an {@code eval} before it).
   */
  public List<Stage> stages() {
    List<Stage> stages = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      long out = i + 1 < names.size() ? rowsIn[i + 1].sum() : rowsOut.sum();
      long fed = i + 1 < names.size() ? nanos[i + 1].sum() + ownNanos[i + 1].sum() : 0;
      long inclusive = nanos[i].sum();
      long own = ownNanos[i].sum() + (inclusive > 0 ? Math.max(0, inclusive - fed) : 0);
      stages.add(new Stage(names.get(i), rowsIn[i].sum(), out, Duration.ofNanos(own)));
    }
    return stages;
  }

  /**
   * One thread's probe of one stage. Rows are counted here and added to the shared counter with
   * each timed row and at {@link #finish} (a shared add per row cost batch mode a sixth of its
   * time), so a running job's counts lag by at most {@value #SAMPLE} rows per probe.
   */
  private final class Probe implements RowSink {
    private final int stage;
    private final RowSink operator;
    private int seen;
    private long uncounted;

    Probe(int stage, RowSink operator) {
      this.stage = stage;
      this.operator = operator;
    }

    @Override
    public boolean accept(Row row) {
      uncounted++;
      if (seen++ % SAMPLE != 0) {
        return operator.accept(row);
      }
      rowsIn[stage].add(uncounted);
      uncounted = 0;
      long start = System.nanoTime();
      boolean more = operator.accept(row);
      nanos[stage].add((System.nanoTime() - start) * SAMPLE);
      return more;
    }

    @Override
    public void finish() {
      rowsIn[stage].add(uncounted);
      uncounted = 0;
      long start = System.nanoTime();
      operator.finish();
      nanos[stage].add(System.nanoTime() - start);
    }
  }
}
