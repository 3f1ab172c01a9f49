package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.ScanStats;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.OutputLookupCommand;
import io.quarry.ql.exec.Aggregator;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.Pipelines;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowSink;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Batch mode on the row engine, where the page engine does not run it ({@link BatchPlan}): per
 * segment slice the commands before the aggregation run as row operators into a partial aggregator
 * (about one per search thread, {@link Partials}), which merge into the final one; that feeds the
 * rest of the pipeline. Counting from the index ({@link BatchPlan.Engine#INDEX}) runs on pages
 * ({@link PageBatch}, {@link IndexCounting}), never here.
 */
final class RowBatch {

  private final Sourcetypes sourcetypes;
  private final SearchControl control;
  private final Predicate<Row> check;
  private final boolean indexedFieldsOnly;
  private final AtomicLong matched;
  private final StageStats stages;
  private final Evaluator evaluator;

  RowBatch(
      Sourcetypes sourcetypes,
      SearchControl control,
      Predicate<Row> check,
      boolean indexedFieldsOnly,
      AtomicLong matched,
      StageStats stages,
      Evaluator evaluator) {
    this.sourcetypes = sourcetypes;
    this.control = control;
    this.check = check;
    this.indexedFieldsOnly = indexedFieldsOnly;
    this.matched = matched;
    this.stages = stages;
    this.evaluator = evaluator;
  }

  /** Runs {@code pipeline} as {@code batch} plans it into {@code end}. */
  ScanStats run(BatchPlan batch, List<Command> pipeline, RowSink end, PageBatch.Scan scan)
      throws IOException {
    int aggregatorAt = batch.aggregatorAt();
    Command aggregator = pipeline.get(aggregatorAt);
    List<Command> filters = pipeline.subList(0, aggregatorAt);
    List<Command> reduce = pipeline.subList(aggregatorAt + 1, pipeline.size());
    Aggregator total =
        (Aggregator)
            Pipelines.operator(
                aggregator,
                Pipelines.build(reduce, end, evaluator, stages, aggregatorAt + 1),
                evaluator);
    // partials merge into the total while the scan runs, so a running job can preview it (see
    // Partials); those of slices that never ended merge at the end
    Partials partials = new Partials(total);
    AtomicBoolean finishing = new AtomicBoolean(); // set under the total's lock
    if (reduce.stream().noneMatch(c -> c instanceof OutputLookupCommand)) {
      control.previewer(() -> preview(total, reduce, evaluator, finishing));
    }
    ScanStats scanned;
    try {
      Supplier<EventVisitor> slices =
          () -> {
            Aggregator partial = partials.take();
            // the map side is finished when the slice ends (a streaming plugin command flushes
            // the rows it batches); the partial itself is merged, never finished
            RowSink map =
                Pipelines.build(
                    filters,
                    stages.probe(aggregatorAt, mergedNotFinished(partial)),
                    evaluator,
                    stages,
                    0);
            return new PipelineFeed(sourcetypes, control, check, map, matched)
                .indexedFieldsOnly(indexedFieldsOnly)
                .then(() -> partials.put(partial));
          };
      scanned = scan.run(slices);
    } finally {
      synchronized (total) {
        finishing.set(true); // waits for a preview being rendered; none after this
      }
      control.previewer(null);
    }
    partials.mergeAll();
    stages.probe(aggregatorAt, total).finish(); // the reduce side's time goes to the same stage
    return scanned;
  }

  /**
   * The partials of a batch search, one per running slice. Where partials outlive merges ({@link
   * Aggregator#partialsOutliveMerges}: the built-in aggregators) a slice takes an idle partial and
   * puts it back, merging it into the total (under the total's lock) only if it was last merged
   * over {@link #MERGE_EVERY_NANOS} ago — about one partial per thread; merging every slice's
   * partial held the lock for a third of a search with 200,000 groups. Otherwise (a transforming
   * plugin, whose merge finishes its map operator) each slice has its own partial, merged when it
   * ends.
   */
  private static final class Partials {
    private static final long MERGE_EVERY_NANOS = 1_000_000_000L;

    private final Aggregator total;
    private final boolean reused;
    private final Queue<Aggregator> idle = new ConcurrentLinkedQueue<>();

    /** Every partial with rows not merged yet, and when it was made or last merged. */
    private final java.util.Map<Aggregator, Long> unmerged =
        new java.util.concurrent.ConcurrentHashMap<>();

    Partials(Aggregator total) {
      this.total = total;
      this.reused = total.partialsOutliveMerges();
    }

    Aggregator take() {
      Aggregator partial = reused ? idle.poll() : null;
      if (partial == null) {
        partial = total.newPartial();
        unmerged.put(partial, System.nanoTime());
      }
      return partial;
    }

    /** A slice ended with {@code partial}. */
    void put(Aggregator partial) {
      long now = System.nanoTime();
      if (!reused || now - unmerged.get(partial) > MERGE_EVERY_NANOS) {
        synchronized (total) {
          total.merge(partial);
        }
        if (!reused) {
          unmerged.remove(partial);
          return;
        }
        unmerged.put(partial, now);
      }
      idle.add(partial);
    }

    /** Merges what every partial still holds (the scan is over: none is in use). */
    void mergeAll() {
      for (Aggregator partial : unmerged.keySet()) {
        total.merge(partial);
      }
      unmerged.clear();
      idle.clear();
    }
  }

  /** A partial as the end of a slice's map side: its finish is the slice's end, not the answer. */
  private static RowSink mergedNotFinished(Aggregator partial) {
    return new RowSink() {
      @Override
      public boolean accept(Row row) {
        return partial.accept(row);
      }

      @Override
      public void finish() {}
    };
  }

  /**
   * What a running batch search would answer now: the total so far (the slices that ended) through
   * the commands after the aggregation, into pages; null when the aggregator has no preview or the
   * search is finishing. Never writes anything ({@code outputlookup} searches have no preview).
   */
  private static List<Page> preview(
      Aggregator total, List<Command> reduce, Evaluator evaluator, AtomicBoolean finishing) {
    List<Page> pages = new ArrayList<>();
    RowSink sink =
        Pipelines.build(reduce, new PageCollector(SearchService.pageSize(), pages::add), evaluator);
    synchronized (total) {
      if (finishing.get() || !total.snapshot(sink)) {
        return null;
      }
    }
    return pages;
  }
}
