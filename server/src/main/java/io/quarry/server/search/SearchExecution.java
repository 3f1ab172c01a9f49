package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.ScanStats;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The driver runtime of one search: picks the mode from the plan, once — a generator ({@link
 * GeneratorRun}, {@link MetricExecution} over metric indexes), batch ({@link PageBatch}: segment
 * slices in parallel on the search pool, partial aggregations merged) or time-ordered ({@link
 * TimeOrderedPages}: one newest-first stream through the whole pipeline) — runs it with the
 * search's evaluator, and sums up what it read, matched and answered, with the messages the answer
 * carries.
 */
final class SearchExecution {
  private final EventStore store;
  private final Sourcetypes sourcetypes;
  private final io.quarry.server.lookups.LookupStore lookups;
  private final ServerMetrics metrics;
  private final Clock clock;
  private final long maxResultRows;
  private final io.quarry.server.search.metric.MetricSearch metricSearch;
  private final PhysicalPlanner physical;

  SearchExecution(
      EventStore store,
      Sourcetypes sourcetypes,
      io.quarry.server.lookups.LookupStore lookups,
      ServerMetrics metrics,
      Clock clock,
      long maxResultRows,
      io.quarry.server.search.metric.MetricSearch metricSearch,
      PhysicalPlanner physical) {
    this.store = requireNonNull(store, "store is null");
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.maxResultRows = maxResultRows;
    this.metricSearch = requireNonNull(metricSearch, "metricSearch is null");
    this.physical = requireNonNull(physical, "physical is null");
  }

  /**
   * Runs {@code plan} under {@code control}, its operators' memory on {@code memory}, handing
   * result pages to {@code pages}; what {@code mstats append=true} commands read is added up in
   * {@code appended}; every task it hands the search pool (a metric scan's slices among them) goes
   * through {@code cpu}'s view of the pool, whose CPU the caller adds ({@link
   * SearchStats#withCpu}).
   */
  SearchStats execute(
      SearchPlan plan,
      SearchControl control,
      Consumer<Page> pages,
      io.quarry.plugin.api.data.MemoryAccount memory,
      java.util.concurrent.atomic.AtomicReference<io.quarry.codecs.metricstore.MetricScanStats>
          appended,
      SearchCpu cpu)
      throws IOException {
    long started = System.nanoTime();
    io.quarry.server.search.metric.MetricSearch metricSearch = this.metricSearch.on(cpu.pool());
    List<String> pluginWarnings = java.util.Collections.synchronizedList(new ArrayList<>());
    Evaluator evaluator =
        evaluator(metricSearch, appended)
            .withResources(
                new io.quarry.ql.exec.SearchResources(
                    memory, control::cancelled, pluginWarnings::add, control::shouldStop))
            .withSearchInfo(
                new io.quarry.ql.exec.SearchInfo(
                    plan.earliestMicros(), plan.latestMicros(), control.sid()));
    if (plan.generator().orElse(null) instanceof io.quarry.ql.ast.MetricCommand metric) {
      // mstats, mcatalog, mpreview: over metric indexes, with this search's evaluator
      return new MetricExecution(metricSearch, maxResultRows)
          .execute(plan, metric, control, pages, evaluator, pluginWarnings, memory);
    }
    List<String> messages = new ArrayList<>();
    List<String> indexes = store.resolve(plan.indexPatterns());
    for (String pattern : plan.indexPatterns()) {
      if (!pattern.contains("*") && store.resolve(List.of(pattern)).isEmpty()) {
        messages.add(
            metricSearch.isMetricIndex(pattern)
                ? "index '"
                    + pattern
                    + "' is a metric index: search it with | mstats, | mcatalog or | mpreview"
                : "index '" + pattern + "' does not exist");
      }
    }
    messages.addAll(plan.messages());
    messages.addAll(plan.slowPatternMessages());
    LuceneTranslator.Translation translation = physical.translate(plan, indexes);
    PageCollector collector = new PageCollector(pages);
    StageStats stages = new StageStats(plan.pipeline().stream().map(Command::name).toList());
    AtomicLong matched = new AtomicLong();
    int aggregatorAt = PhysicalPlanner.batchAggregatorIndex(plan.pipeline());
    PageResults results = new PageResults(collector, maxResultRows, stages);
    EventRun run =
        new EventRun(
            plan, indexes, translation, results, matched, stages, control, evaluator, cpu.pool());
    ScanStats scan =
        plan.generator().isPresent()
            ? new GeneratorRun(store, lookups)
                .run(plan, results, matched, stages, evaluator, control)
            : aggregatorAt >= 0 ? runBatch(run, aggregatorAt) : runTimeOrdered(run);
    messages.addAll(pluginWarnings);
    messages.addAll(control.stopMessages());
    metrics.eventsScanned(scan.eventsRead());
    if (collector.rows() >= maxResultRows) {
      messages.add(
          "results truncated at "
              + maxResultRows
              + " rows (search.maxResultRows); narrow the search");
    }
    messages.addAll(scan.warnings());
    SearchStats stats =
        new SearchStats(
            indexes,
            scan.buckets(),
            scan.bucketsSkipped(),
            scan.segments(),
            scan.segmentsSkipped(),
            scan.eventsRead(),
            matched.get(),
            collector.rows(),
            translation.exact() || plan.filter().isEmpty(),
            Duration.ofNanos(System.nanoTime() - started),
            scan.costs(),
            control.extraction(),
            control.paths(),
            stages.stages(),
            messages,
            java.util.Optional.empty(),
            0,
            Duration.ZERO); // SearchService adds the search's CPU
    return stats;
  }

  /** What an event search runs with, in either mode. */
  private record EventRun(
      SearchPlan plan,
      List<String> indexes,
      LuceneTranslator.Translation translation,
      PageResults results,
      AtomicLong matched,
      StageStats stages,
      SearchControl control,
      Evaluator evaluator,
      ExecutorService pool) {} // the search pool, this search's tasks on it measured (SearchCpu)

  /** Time-ordered mode: one newest-first stream through the whole pipeline. */
  private ScanStats runTimeOrdered(EventRun run) throws IOException {
    SearchPlan plan = run.plan();
    LuceneTranslator.Translation translation = run.translation();
    TimeOrderedShape onPages = physical.timeOrderedShape(plan.pipeline());
    if (onPages.listing() && run.control().everyEventFieldAsked()) {
      // a subsearch's events carry their search-time fields, a renamed row's too
      onPages = onPages.withEveryField();
    }
    boolean exact = plan.filter().isEmpty() || translation.exact();
    String deduplicated = exact ? PhysicalPlanner.dedupFieldFirst(plan.pipeline()) : null;
    return TimeOrderedPages.run(
        onPages,
        plan.pipeline(),
        sourcetypes,
        run.control(),
        exact ? null : EventFilter.of(plan.filter().get()),
        plan.indexedFieldsOnly(),
        run.matched(),
        run.stages(),
        run.evaluator(),
        run.results(),
        deduplicated,
        (visitor, reader) ->
            store.scan(
                run.indexes(),
                translation.query(),
                plan.earliestMicros(),
                plan.latestMicros(),
                visitor,
                reader));
  }

  /**
   * Batch mode: the filters and a partial {@code stats} run per segment slice on the search pool;
   * the partials merge into one final {@code stats}, which feeds the rest of the pipeline.
   */
  private ScanStats runBatch(EventRun run, int aggregatorAt) throws IOException {
    SearchPlan plan = run.plan();
    List<String> indexes = run.indexes();
    LuceneTranslator.Translation translation = run.translation();
    List<Command> pipeline = plan.pipeline();
    BatchPlan batch = physical.batchPlan(plan, indexes, translation, aggregatorAt);
    if (batch.runsTimeOrdered()) {
      return runTimeOrdered(run);
    }
    PageBatch.Scan scan =
        slices ->
            store.pullParallel(
                indexes,
                translation.query(),
                plan.earliestMicros(),
                plan.latestMicros(),
                slices,
                run.pool());
    boolean checked = BatchPlan.checksEvents(plan, translation);
    return new PageBatch(
            sourcetypes,
            run.control(),
            checked ? EventFilter.of(plan.filter().get()) : null,
            plan.indexedFieldsOnly(),
            run.matched(),
            run.stages(),
            run.evaluator(),
            SearchService.pageSize(),
            run.pool())
        .run(
            batch,
            pipeline,
            run.results(),
            scan,
            (countedUpFront, counted, slices) ->
                store.pullParallelCounting(
                    indexes,
                    translation.query(),
                    countedUpFront,
                    plan.earliestMicros(),
                    plan.latestMicros(),
                    counted,
                    slices,
                    run.pool()));
  }

  /**
   * Evaluates eval/where with the search's clock (now()) in UTC; what {@code mstats append=true}
   * reads is added up in {@code appended}.
   */
  private Evaluator evaluator(
      io.quarry.server.search.metric.MetricSearch metricSearch,
      java.util.concurrent.atomic.AtomicReference<io.quarry.codecs.metricstore.MetricScanStats>
          appended) {
    return new Evaluator(clock.instant(), ZoneOffset.UTC, lookups, lookups)
        .withRawTermMatcher(RawTerms.MATCHER)
        .withMetricAppend(
            MetricExecution.appender(
                metricSearch,
                scan -> appended.accumulateAndGet(scan, (a, b) -> a == null ? b : a.plus(b))));
  }
}
