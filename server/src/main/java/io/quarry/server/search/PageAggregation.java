package io.quarry.server.search;

import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;

/**
 * The partial aggregations of a batch search on the page engine, about one per search thread: a
 * segment slice takes an idle partial (or makes one), feeds it pages, and puts it back; a partial
 * is merged into the final aggregation (under its lock) when put back over {@link
 * #MERGE_EVERY_NANOS} after its last merge, so a running job's preview sees the scan progress, and
 * all of them at the end. Merging every slice's partial held the lock for a third of a search with
 * 200,000 groups.
 */
final class PageAggregation {
  private static final long MERGE_EVERY_NANOS = 1_000_000_000L;

  private final PageAggregator total;
  private final java.util.function.BooleanSupplier previewAsked;
  private final Queue<PageAggregator> idle = new ConcurrentLinkedQueue<>();
  private final Map<PageAggregator, Long> unmerged = new ConcurrentHashMap<>();

  PageAggregation(PageAggregator total, java.util.function.BooleanSupplier previewAsked) {
    this.total = total;
    this.previewAsked = previewAsked;
  }

  /** The final aggregation; lock it to read or merge. */
  PageAggregator total() {
    return total;
  }

  /** A partial for one slice. */
  PageAggregator take() {
    PageAggregator partial = idle.poll();
    if (partial == null) {
      partial = total.newPartial();
      unmerged.put(partial, System.nanoTime());
    }
    return partial;
  }

  /** A slice ended with {@code partial}. */
  void put(PageAggregator partial) {
    long now = System.nanoTime();
    if (now - unmerged.get(partial) > MERGE_EVERY_NANOS && previewAsked.getAsBoolean()) {
      synchronized (total) {
        total.merge(partial);
      }
      unmerged.put(partial, now);
    }
    idle.add(partial);
  }

  /**
   * The scan is over: every partial merged (with the pool's help, as the answer), the segments'
   * value counts of {@code values}' field added ({@code values} null: none were counted); the final
   * aggregation finished, its answer made with up to {@code helpers} threads of {@code parallel}
   * (the search pool, which other searches' slices may keep busy: the caller takes every task no
   * helper took) besides the caller, and handed as a pulled source to the reduce side ({@link
   * io.quarry.ql.exec.OutputSource}, which finishes it on the first pull and closes it with the
   * reduce chain's driver). The final aggregation closed when merging fails, or when {@code
   * cancelled} says so: the merge and the answer then start no further task and throw a {@link
   * java.util.concurrent.CancellationException}. A search past its time limit or finalized is not
   * stopped here: it answers with what it read, so its answer is made in full.
   */
  io.quarry.ql.exec.OutputSource answer(
      CountShortcut values,
      OrdinalCounts segmentCounts,
      Executor parallel,
      int helpers,
      java.util.function.BooleanSupplier cancelled) {
    try {
      mergeAll(parallel, helpers, cancelled);
      synchronized (total) {
        if (values != null) {
          segmentCounts.drainInto(total, values.field());
        }
        total.finishOn(parallel, helpers, cancelled);
      }
    } catch (RuntimeException | Error e) {
      total.close();
      throw e;
    }
    return io.quarry.ql.exec.OutputSource.of(total);
  }

  /**
   * Merges what every partial still holds (the scan is over: none is in use), each merge shared
   * with up to {@code helpers} threads of {@code parallel}.
   */
  private void mergeAll(
      Executor parallel, int helpers, java.util.function.BooleanSupplier cancelled) {
    try {
      synchronized (total) {
        for (PageAggregator partial : unmerged.keySet()) {
          total.mergeOn(partial, parallel, helpers, cancelled);
        }
      }
    } finally {
      unmerged.keySet().forEach(PageAggregator::close); // merged, or a stopped merge's rest
      unmerged.clear();
      idle.clear();
    }
  }
}
