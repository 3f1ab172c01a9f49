package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.ScanSlice;
import io.quarry.codecs.store.ScanStats;
import io.quarry.codecs.store.SliceCursor;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.engine.aggregation.CountPages;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.EventText;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.exec.TransformingPlugin;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Batch mode with an aggregation on the page engine ({@link PageAggregator}: {@code stats}, {@code
 * top}, {@code rare}, {@code timechart}, {@code chart}, or a transforming plugin command; "{@code
 * stats}" below stands for any of them). Per segment slice the matching events become pages of just
 * the fields the map side reads, straight from storage ({@link EventPages}): leading {@code rex}
 * extractions run inside the source, the other commands before {@code stats} as page stages ({@link
 * PageChain}). The pages feed a partial {@link PageAggregator}; partials merge into the final one
 * ({@link PageAggregation}), whose pages are the answer or go through the commands after {@code
 * stats} ({@link PageReduce}). A transforming plugin command has no partials: its map side is the
 * last step of each slice's chain ({@code exec.TransformingPlugin}), its state pages held ({@link
 * MapSideStates}) until its reduce side, at the head of the reduce chain ({@link
 * PageReduce#afterMapSide}), takes them after the scan. When the index answers the counting ({@link
 * BatchPlan.Engine#INDEX}) each slice's source is {@link IndexCounting}, whose counts reach the
 * same partials as pages of intermediate state. A map side with no page stage runs time-ordered
 * instead ({@link SearchService}).
 */
final class PageBatch {
  /** What a memory-limit error names when a segment's shared candidate blocks do not fit. */
  static final String CANDIDATE_BLOCKS = "scan (a segment's candidate blocks)";

  /** Runs a parallel scan, each slice pulled by a new {@link ScanSlice}. */
  @FunctionalInterface
  interface Scan {
    ScanStats run(Supplier<ScanSlice> slices) throws IOException;
  }

  /** Runs a parallel scan that first counts {@code counted}'s documents into a sink. */
  @FunctionalInterface
  interface CountingScan {
    ScanStats run(
        org.apache.lucene.search.Query counted,
        java.util.function.LongConsumer countedSink,
        Supplier<ScanSlice> slices)
        throws IOException;
  }

  private final Sourcetypes sourcetypes;
  private final SearchControl control;
  private final EventFilter filter; // the filter on the pages' events; null: every one matches
  private final boolean indexedFieldsOnly; // tstats: no search-time extraction
  private final AtomicLong matched;
  private final StageStats stages;
  private final Evaluator evaluator;
  private final int pageSize;
  private final java.util.concurrent.Executor parallel; // the search pool: shares the answer

  PageBatch(
      Sourcetypes sourcetypes,
      SearchControl control,
      EventFilter filter,
      boolean indexedFieldsOnly,
      AtomicLong matched,
      StageStats stages,
      Evaluator evaluator,
      int pageSize,
      java.util.concurrent.Executor parallel) {
    this.sourcetypes = sourcetypes;
    this.control = control;
    this.filter = filter;
    this.indexedFieldsOnly = indexedFieldsOnly;
    this.matched = matched;
    this.stages = stages;
    this.evaluator = evaluator;
    this.pageSize = pageSize;
    this.parallel = parallel;
  }

  /**
   * Runs {@code pipeline}, whose command {@code batch.aggregatorAt()} is {@code stats} (with only
   * row-local commands before it, whose map side runs as {@code batch.pageShape()} says), into
   * {@code results}. From the index ({@link BatchPlan.Engine#INDEX}) each slice's source is {@link
   * IndexCounting} over the page source of the remaining events, and {@code stats count}'s sure
   * documents are counted before the scan ({@code countingScan}).
   */
  ScanStats run(
      BatchPlan batch,
      List<Command> pipeline,
      PageResults results,
      Scan scan,
      CountingScan countingScan)
      throws IOException {
    int statsAt = batch.aggregatorAt();
    Command stats = pipeline.get(statsAt);
    PageShape shape = batch.pageShape();
    CountShortcut counting = batch.counting();
    List<Command> filters = pipeline.subList(0, statsAt);
    List<Command> reduce = pipeline.subList(statsAt + 1, pipeline.size());
    if (!shape.onPages() || !shape.reduceOnPages()) {
      throw SearchFailures.notSupported(pipeline);
    }
    // a built-in aggregation: a partial per search thread, merged into the final one, its answer
    // into the reduce side; a transforming plugin command: its map side the last step of each
    // slice's chain, the state pages into its reduce side at the head of the reduce chain
    PluginCommand plugin = TransformingPlugin.supports(stats) ? (PluginCommand) stats : null;
    PageAggregator total = plugin == null ? PageAggregator.of(stats, evaluator, pageSize) : null;
    PageAggregation partials =
        total == null ? null : new PageAggregation(total, control::previewAsked);
    MapSideStates states =
        plugin == null ? null : new MapSideStates(evaluator.pluginContext().blockFactory());
    PageReduce reduceOnPages =
        plugin == null
            ? PageReduce.overResults(reduce, evaluator, results::add, stages, statsAt + 1, pageSize)
            : PageReduce.afterMapSide(
                pipeline.subList(statsAt, pipeline.size()),
                evaluator,
                results::add,
                stages,
                statsAt,
                pageSize);
    AtomicBoolean finishing = new AtomicBoolean(); // set under the total's lock
    // a plugin's states belong to its reduce operator once handed over: no preview
    if (total != null && AggregationPreview.previews(reduce)) {
      control.previewer(() -> AggregationPreview.of(total, reduce, evaluator, pageSize, finishing));
    }
    int fused = shape.fused();
    List<Command> chained = filters.subList(fused, filters.size());
    boolean ownText = shape.ownText();
    // a wildcard aggregation reads every field the events have (*): every default field, those
    // the commands read, and each event's every field laid out by an every-field listing
    boolean everyField = shape.sourceFields().contains("*");
    List<String> sourceFields = shape.sourceFields();
    if (everyField) {
      java.util.Set<String> read = new java.util.LinkedHashSet<>(EventListing.DEFAULT_ORDER);
      read.addAll(sourceFields);
      read.remove("*");
      sourceFields = List.copyOf(read);
    }
    List<String> eventFields = sourceFields;
    // rex … | stats count by its field: the scan counts the field's values itself
    RexCommand countedRex =
        counting == null && total != null
            ? RexCounting.of(shape, filters, stats, filter != null, indexedFieldsOnly)
            : null;
    // stats count, range(_time) … by a key=value field: the scan aggregates its states itself
    String keyValueField =
        counting == null && total != null && countedRex == null
            ? KeyValueStates.of(shape, filters, stats, filter != null, indexedFieldsOnly)
            : null;
    KeyStateTables keyStates =
        keyValueField == null
            ? null
            : new KeyStateTables(
                keyValueField,
                total,
                io.quarry.ql.engine.aggregation.TimeExtremeStates.readsTime(
                    (io.quarry.ql.ast.StatsCommand) stats),
                () -> evaluator.memory(stats.name()), // beside the partials' groups
                control::previewAsked,
                stages,
                statsAt);
    OrdinalCounts segmentCounts = new OrdinalCounts();
    SegmentDictionaryBlocks dictionaries =
        new SegmentDictionaryBlocks(evaluator.memory(stats.name()));
    // a segment's candidate blocks that its slices share, charged once and given back at the end
    MemoryTracker scanMemory = evaluator.memory(CANDIDATE_BLOCKS);
    ScanStats scanned;
    try {
      Supplier<ScanSlice> slices =
          () -> {
            PageAggregator partial = partials == null ? null : partials.take();
            ScanSourceOperator reading = new ScanSourceOperator(pageSize);
            // every field: the scan's events laid out in pages of every field, the chain's first
            // step
            List<EventListing> every =
                everyField
                    ? List.of(
                        new EventListings(
                                java.util.Set.copyOf(eventFields),
                                sourcetypes,
                                !indexedFieldsOnly,
                                control,
                                evaluator,
                                pageSize)
                            .batches(true, ListedFields.of(List.of())))
                    : List.of();
            PageChain chain =
                PageChain.pulling(
                    reading,
                    every,
                    chained,
                    plugin == null ? null : TransformingPlugin.mapSide(plugin, evaluator, true),
                    evaluator,
                    plugin != null
                        ? states
                        : page -> {
                          long started = System.nanoTime();
                          partial.addInput(page);
                          stages.counted(
                              statsAt, page.positionCount(), System.nanoTime() - started);
                        },
                    stages,
                    fused);
            EventPages source =
                new EventPages(
                    eventFields,
                    filters.subList(0, fused),
                    evaluator.stopped(),
                    indexedFieldsOnly,
                    sourcetypes,
                    control,
                    filter,
                    matched,
                    pageSize,
                    page -> {
                      for (int stage = 0; stage < fused; stage++) {
                        stages.counted(stage, page.positionCount(), 0);
                      }
                      reading.add(ownText && !everyField ? EventText.withOwnText(page) : page);
                    },
                    () -> {},
                    chain::close); // also when the slice fails: plugin operators are released
            source.groupByOrdinal(shape.byOrdinal(), dictionaries);
            EventPages events = everyField ? source.listing() : source;
            EventVisitor visitor =
                keyStates != null
                    ? new KeyValueStates(
                        keyValueField, keyStates, sourcetypes, control, matched, events)
                    : countedRex != null
                        ? new RexCounting(
                            countedRex,
                            CountShortcut.of(stats).field(),
                            evaluator.stopped(),
                            partial,
                            control,
                            matched,
                            stages,
                            statsAt,
                            evaluator.memory(stats.name()), // beside the partial's groups
                            events)
                        : counting == null
                            ? events
                            : new IndexCounting(
                                counting,
                                batch.sure(),
                                batch.blockCondition(),
                                evaluator.zone(),
                                segmentCounts,
                                partial,
                                control,
                                matched,
                                stages,
                                statsAt,
                                events);
            return new ScanSlice() {
              @Override
              public EventVisitor visitor() {
                return visitor;
              }

              @Override
              public void pull(SliceCursor cursor) {
                reading.open(cursor);
                chain.run(); // the scan, the chain, into the partial (or the plugin's states)
                if (partials != null) {
                  partials.put(partial);
                }
              }

              @Override
              public void charge(Object held, long bytes) {
                scanMemory.holdShared(held, bytes);
              }

              @Override
              public void discharge(Object held, long bytes) {
                scanMemory.letGoShared(held, bytes);
              }

              @Override
              public boolean stopped() {
                return control.shouldStop();
              }

              @Override
              public void noSliceLeft() {
                if (keyStates != null) {
                  // every idle table, beside the last slices
                  control.keyTablesHandedOnEarly(keyStates.handOnIdle());
                }
              }
            };
          };
      org.apache.lucene.search.Query countedUpFront = batch.countedUpFront();
      long countStarted = System.nanoTime();
      if (countedUpFront != null && control.readAndCheck(0)) {
        countedUpFront = null; // stopped (time limit, cancel) before it started: count nothing
      }
      scanned =
          countedUpFront == null
              ? scan.run(slices)
              : countingScan.run(
                  countedUpFront,
                  documents -> {
                    synchronized (total) {
                      total.addIntermediateInput(CountPages.rows(documents));
                    }
                    matched.addAndGet(documents);
                    stages.counted(statsAt, documents, System.nanoTime() - countStarted);
                  },
                  slices);
      if (keyStates != null) {
        keyStates.drain(); // every table's states into the final aggregation, their memory back
      }
    } catch (IOException | RuntimeException | Error e) {
      if (keyStates != null) {
        keyStates.release(); // what the tables held, dropped
      }
      if (total != null) {
        total.close(); // gives back what the merged groups held
      } else {
        states.close(); // and what the plugin's states held
      }
      reduceOnPages.close();
      dictionaries.release();
      throw e;
    } finally {
      if (total != null) {
        synchronized (total) {
          finishing.set(true); // waits for a preview being rendered; none after this
        }
      }
      control.previewer(null);
    }
    long started = System.nanoTime();
    try {
      // pulled: the plugin's states (its reduce operator merges them), or the merged answer
      reduceOnPages.pullFrom(
          total == null
              ? states.source()
              : partials.answer(
                  counting != null && counting.kind() == CountShortcut.Kind.VALUES
                      ? counting
                      : null,
                  segmentCounts,
                  parallel,
                  Runtime.getRuntime().availableProcessors() - 1,
                  control::cancelled));
      reduceOnPages.run();
    } finally {
      if (states != null) {
        states.close();
      }
      reduceOnPages.close();
      dictionaries.release();
      control.byOrdinal(dictionaries.pages());
      if (total != null) {
        control.byEntry(total.pagesByEntry(), total.pagesInPlace(), total.groupsHandedWhole());
      }
    }
    stages.timed(statsAt, System.nanoTime() - started); // with the commands it fed
    return scanned;
  }
}
