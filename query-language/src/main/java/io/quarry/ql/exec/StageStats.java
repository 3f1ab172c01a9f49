package io.quarry.ql.exec;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The job inspector's view of a pipeline: per stage, the rows it took in and gave out and the time
 * spent in it. A {@link Driver} counts each operator's input pages and the time of every call into
 * it ({@link #counted}, its own time); the server's sources count a scan's rows and the time of an
 * emitting {@code finish} including the stages it fed ({@link #timed}); the slices of a batch
 * search add into the same counters from their threads.
 */
public final class StageStats {
  private final List<String> names;
  private final LongAdder[] rowsIn;
  private final LongAdder[] nanos; // time including the stages a stage fed (emitting finishes)
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

  /**
   * Counts rows a stage took (a page stage's pages, a count by a scan), and the time the stage
   * alone spent on them (not the stages after it).
   */
  public void counted(int stage, long rows, long nanos) {
    rowsIn[stage].add(rows);
    ownNanos[stage].add(nanos);
  }

  /** Adds time a stage spent including the stages it fed (an aggregation's emitting finish). */
  public void timed(int stage, long nanos) {
    this.nanos[stage].add(nanos);
  }

  /** Counts rows the last stage gave out (whole pages). */
  public void out(long rows) {
    rowsOut.add(rows);
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
}
