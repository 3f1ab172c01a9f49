package io.quarry.server.search.metric;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.metricstore.MetricScanStats;
import io.quarry.codecs.metricstore.MetricStore;
import io.quarry.codecs.metricstore.Postings;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.codecs.metricstore.SeriesSelector;
import io.quarry.ql.ast.McatalogCommand;
import io.quarry.ql.ast.MetricAggregation;
import io.quarry.ql.ast.MetricCommand;
import io.quarry.ql.ast.MpreviewCommand;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.plan.SearchPlan;
import java.io.IOException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

/** Runs {@code mstats}, {@code mcatalog} and {@code mpreview} over the metric store. */
public final class MetricSearch {
  private final MetricStore store;
  private final java.util.concurrent.Executor parallel;
  private final int threads;

  /** Metric searches that read in the calling thread only. */
  public MetricSearch(MetricStore store) {
    this(store, null, 1);
  }

  /**
   * Metric searches whose {@code mstats} reads a bucket's series in up to {@code threads} slices in
   * parallel on {@code parallel} (the search pool; the calling thread reads the slices no pool
   * thread took).
   */
  public MetricSearch(MetricStore store, java.util.concurrent.Executor parallel, int threads) {
    this.store = requireNonNull(store, "store is null");
    this.parallel = parallel;
    this.threads = Math.max(1, threads);
  }

  /**
   * These metric searches reading their parallel slices on {@code parallel} instead: one search's
   * view of the search pool, which measures the CPU its tasks spend ({@code search.SearchCpu}).
   */
  public MetricSearch on(java.util.concurrent.Executor parallel) {
    return parallel == this.parallel || this.parallel == null
        ? this
        : new MetricSearch(store, requireNonNull(parallel, "parallel is null"), threads);
  }

  public MetricStore store() {
    return store;
  }

  /**
   * What a metric command produced.
   *
   * @param pages its answer as typed pages, for the rest of the pipeline
   * @param scan what the store read and skipped
   * @param messages for the user: indexes that are not metric indexes
   */
  public record Result(
      List<io.quarry.plugin.api.data.Page> pages, MetricScanStats scan, List<String> messages) {}

  /**
   * Runs {@code command} over the metric indexes among {@code indexes} (already restricted to what
   * the user may read), in the plan's time range and filtered by the plan's filter; the answer is
   * typed pages of {@code pageSize} rows (mstats' and mpreview's at most {@code maxRows} in all).
   *
   * @param maxRows at most this many rows from {@code mpreview}
   * @param stopped asked between series: the search's time limit, finalize or cancel
   */
  public Result run(
      MetricCommand command,
      SearchPlan plan,
      List<String> indexes,
      long maxRows,
      BooleanSupplier stopped,
      int pageSize)
      throws IOException {
    return run(
        command,
        plan,
        indexes,
        maxRows,
        stopped,
        pageSize,
        io.quarry.plugin.api.data.MemoryAccount.unbounded("mstats"));
  }

  /**
   * As above, mstats counting its states against {@code memory} (the search's account: over it, the
   * search fails with {@code MemoryLimitExceededException}).
   */
  public Result run(
      MetricCommand command,
      SearchPlan plan,
      List<String> indexes,
      long maxRows,
      BooleanSupplier stopped,
      int pageSize,
      io.quarry.plugin.api.data.MemoryAccount memory)
      throws IOException {
    List<String> messages = new ArrayList<>();
    List<io.quarry.plugin.api.data.Page> pages = List.of();
    if (indexes.isEmpty()) {
      messages.add(
          command.name()
              + " reads no index: name a metric index in its where clause (index=<name>)");
    }
    long from = plan.earliestMicros();
    long to = plan.latestMicros();
    MetricScanStats scan = MetricScanStats.NONE;
    switch (command) {
      case MstatsCommand mstats -> {
        MstatsRun run = new MstatsRun(mstats, ZoneOffset.UTC, stopped, memory);
        for (String index : indexes) {
          run.index(index);
          SeriesSelector selector =
              SeriesFilter.selector(plan.filter(), index, key -> run.wants(key.metricName()));
          selector = withMetricTerm(selector, mstats);
          scan = scan.plus(store.index(index).scan(selector, from, to, run, parallel, threads));
        }
        pages = run.pages(pageSize, maxRows);
      }
      case McatalogCommand catalog -> {
        CatalogAnswer answer = CatalogAnswer.read(catalog, store, plan, indexes, from, to);
        pages = answer.pages(pageSize);
      }
      case MpreviewCommand preview -> {
        PreviewPages previewPages = new PreviewPages(preview, maxRows, stopped);
        for (String index : indexes) {
          scan =
              scan.plus(
                  store
                      .index(index)
                      .scan(
                          SeriesFilter.selector(plan.filter(), index, key -> true),
                          from,
                          to,
                          previewPages.visitor(index)));
        }
        pages = previewPages.pages(pageSize);
      }
    }
    messages.addAll(scan.warnings());
    return new Result(pages, scan, messages);
  }

  /**
   * {@code mstats prestats=true}'s points as pages pulled one at a time ({@link PrestatsCursor}:
   * the store read as the pages are asked for), for the pipeline after it or an {@code
   * append=true}.
   */
  public PrestatsCursor prestatsCursor(
      MstatsCommand mstats,
      SearchPlan plan,
      List<String> indexes,
      int pageSize,
      BooleanSupplier stopped) {
    MstatsRun matcher = new MstatsRun(mstats, ZoneOffset.UTC, stopped);
    return new PrestatsCursor(
        mstats,
        pageSize,
        indexes,
        index ->
            store
                .index(index)
                .cursor(
                    selector(mstats, plan, index, matcher),
                    plan.earliestMicros(),
                    plan.latestMicros()),
        stopped);
  }

  /**
   * The series of {@code index} whose points {@code mstats} reads: the plan's filter, its metrics.
   */
  private static SeriesSelector selector(
      MstatsCommand mstats, SearchPlan plan, String index, MstatsRun matcher) {
    return withMetricTerm(
        SeriesFilter.selector(plan.filter(), index, key -> matcher.wants(key.metricName())),
        mstats);
  }

  /** With one exact metric name throughout, its posting narrows the series before any test. */
  private static SeriesSelector withMetricTerm(SeriesSelector selector, MstatsCommand mstats) {
    TreeSet<String> metrics = new TreeSet<>();
    for (MetricAggregation aggregation : mstats.aggregations()) {
      if (aggregation.isWildcard() || aggregation.metric().equals(MetricAggregation.VALUE)) {
        return selector;
      }
      metrics.add(aggregation.metric());
    }
    if (metrics.size() != 1) {
      return selector;
    }
    List<String> terms = new ArrayList<>(selector.requiredTerms());
    terms.add(Postings.term(Postings.METRIC_NAME, metrics.first()));
    return new SeriesSelector(terms, selector.test());
  }

  static String field(SeriesKey key, String field, String index) {
    if (field.equals(Postings.METRIC_NAME)) {
      return key.metricName();
    }
    if (field.equals("index")) {
      return index;
    }
    return key.dimension(field);
  }

  /** The metric index a name refers to, if it is one. */
  public boolean isMetricIndex(String name) {
    return store.hasIndex(name);
  }
}
