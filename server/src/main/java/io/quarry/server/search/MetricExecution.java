package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.MetricCommand;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.exec.Values;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.search.metric.MetricSearch;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Runs a plan whose generator is a command over metric indexes ({@code mstats}, {@code mcatalog},
 * {@code mpreview}) for {@link SearchService}: the metric store answers through {@link
 * MetricSearch}; its answer as typed pages (with {@code prestats=true}, its points as they are
 * scanned) through {@link PageReduce}. The stats name the buckets, series, chunks and points read
 * and skipped.
 */
final class MetricExecution {
  private final MetricSearch metricSearch;
  private final long maxResultRows;

  MetricExecution(MetricSearch metricSearch, long maxResultRows) {
    this.metricSearch = requireNonNull(metricSearch, "metricSearch is null");
    this.maxResultRows = maxResultRows;
  }

  /**
   * A command over metric indexes ({@code mstats}, {@code mcatalog}, {@code mpreview}): its answer,
   * computed from the metric store, through the pipeline; the stats name the series and chunks it
   * read and skipped.
   */
  SearchStats execute(
      SearchPlan plan,
      MetricCommand metric,
      SearchControl control,
      Consumer<Page> pages,
      Evaluator evaluator,
      List<String> pluginWarnings,
      io.quarry.plugin.api.data.MemoryAccount memory)
      throws IOException {
    long started = System.nanoTime();
    List<String> indexes = metricSearch.store().resolve(plan.indexPatterns());
    PageCollector collector = new PageCollector(pages);
    StageStats stages = new StageStats(plan.pipeline().stream().map(Command::name).toList());
    if (metric instanceof MstatsCommand mstats && mstats.prestats()) {
      return prestats(plan, mstats, indexes, control, pages, started, evaluator, pluginWarnings);
    }
    io.quarry.server.search.metric.MetricSearch.Result result =
        metricSearch.run(
            metric,
            plan,
            indexes,
            // mpreview stops reading at the answer's limit; mstats' groups are all wanted by the
            // commands after it (the answer's end cuts them)
            metric instanceof MstatsCommand && !plan.pipeline().isEmpty()
                ? Long.MAX_VALUE
                : maxResultRows,
            control::shouldStop,
            SearchService.pageSize(),
            memory);
    PageResults results = new PageResults(collector, maxResultRows, stages);
    long rows =
        GeneratorRun.feedPages(
            result.pages().iterator(),
            PageReduce.overResults(
                plan.pipeline(), evaluator, results::add, stages, 0, SearchService.pageSize()),
            control);
    long emitted = collector.rows();
    List<String> messages = new ArrayList<>(plan.messages());
    messages.addAll(result.messages());
    messages.addAll(pluginWarnings);
    if (control.stoppedByTimeLimit()) {
      messages.add(
          "search stopped after its time limit of "
              + Values.toText(control.limit().toNanos() / 1e9)
              + " s (max_time, search.maxTimeSeconds); results cover only the points read until"
              + " then");
    }
    if (emitted >= maxResultRows) {
      messages.add(
          "results truncated at "
              + maxResultRows
              + " rows (search.maxResultRows); narrow the search");
    }
    io.quarry.codecs.metricstore.MetricScanStats scan = result.scan();
    return SearchStats.ofMetricScan(
        indexes,
        scan,
        rows,
        emitted,
        Duration.ofNanos(System.nanoTime() - started),
        stages.stages(),
        messages); // SearchService adds the search's CPU
  }

  /**
   * Where {@code mstats prestats=true append=true} later in a pipeline reads: the metric store,
   * over the indexes, time and series filter bound into the command when it was planned; what each
   * such command read goes to {@code scans} (the search's costs count every mstats).
   */
  static io.quarry.ql.exec.MetricAppend appender(
      MetricSearch metricSearch,
      java.util.function.Consumer<io.quarry.codecs.metricstore.MetricScanStats> scans) {
    return (mstats, pageSize, stopped) -> {
      io.quarry.ql.ast.MetricAppendScope scope =
          mstats
              .scope()
              .orElseThrow(() -> new IllegalStateException("mstats append=true was not planned"));
      SearchPlan plan =
          new SearchPlan(
              scope.indexes(),
              scope.earliestMicros(),
              scope.latestMicros(),
              scope.filter(),
              List.of(),
              java.util.Optional.of(mstats),
              List.of());
      List<String> indexes = metricSearch.store().resolve(scope.indexes());
      List<String> messages = new ArrayList<>();
      if (indexes.isEmpty()) {
        messages.add(
            "mstats append=true reads no index: name a metric index in its where clause"
                + " (index=<name>)");
      }
      io.quarry.server.search.metric.PrestatsCursor points =
          metricSearch.prestatsCursor(mstats, plan, indexes, pageSize, stopped);
      return new io.quarry.ql.exec.MetricAppend.Points() {
        @Override
        public Page next() throws IOException {
          return points.next();
        }

        @Override
        public List<String> close() throws IOException {
          io.quarry.codecs.metricstore.MetricScanStats read = points.close();
          scans.accept(read);
          messages.addAll(read.warnings());
          return messages;
        }
      };
    };
  }

  /**
   * {@code mstats prestats=true}: the points stream into the pipeline (its {@code stats}, {@code
   * timechart} … aggregate them) as pages while the metric store is scanned.
   */
  private SearchStats prestats(
      SearchPlan plan,
      MstatsCommand mstats,
      List<String> indexes,
      SearchControl control,
      Consumer<Page> pages,
      long started,
      Evaluator evaluator,
      List<String> pluginWarnings)
      throws IOException {
    PageCollector collector = new PageCollector(pages);
    StageStats stages = new StageStats(plan.pipeline().stream().map(Command::name).toList());
    io.quarry.codecs.metricstore.MetricScanStats scan;
    PageResults results = new PageResults(collector, maxResultRows, stages);
    PageReduce pipeline =
        PageReduce.overResults(
            plan.pipeline(), evaluator, results::add, stages, 0, SearchService.pageSize());
    // pulled: the store read a page of points at a time as the pipeline asks
    io.quarry.server.search.metric.PrestatsCursor points =
        metricSearch.prestatsCursor(
            mstats, plan, indexes, SearchService.pageSize(), control::shouldStop);
    long fed;
    try {
      fed = GeneratorRun.feedPages(points.pages(), pipeline, control);
    } catch (java.io.UncheckedIOException e) {
      throw e.getCause(); // a read that failed
    } finally {
      scan = points.close();
    }
    List<String> messages = new ArrayList<>(plan.messages());
    if (indexes.isEmpty()) {
      messages.add("mstats reads no index: name a metric index in its where clause (index=<name>)");
    }
    messages.addAll(scan.warnings());
    messages.addAll(pluginWarnings);
    if (control.stoppedByTimeLimit()) {
      messages.add(
          "search stopped after its time limit of "
              + Values.toText(control.limit().toNanos() / 1e9)
              + " s (max_time, search.maxTimeSeconds); results cover only the points read until"
              + " then");
    }
    return SearchStats.ofMetricScan(
        indexes,
        scan,
        fed,
        collector.rows(),
        Duration.ofNanos(System.nanoTime() - started),
        stages.stages(),
        messages); // SearchService adds the search's CPU
  }
}
