package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.ScanStats;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.Pipelines;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowSink;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.plan.SearchPlan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A search that starts with a generating command instead of an index scan ({@code | makeresults},
 * {@code | inputlookup t}, {@code | help}, {@code | dbinspect}, a plugin's generator): its results
 * made straight as pages through the page stages when the generator and every command after it have
 * one, else as rows through the row pipeline (and recorded as row stages).
 */
final class GeneratorRun {
  private final EventStore store;
  private final io.quarry.server.lookups.LookupStore lookups;

  GeneratorRun(EventStore store, io.quarry.server.lookups.LookupStore lookups) {
    this.store = requireNonNull(store, "store is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
  }

  /**
   * A generating command's rows through the whole pipeline: {@code | inputlookup t} (one row per
   * table row, a field per non-empty cell), {@code | help}, or a plugin's generating command.
   */
  ScanStats run(
      SearchPlan plan,
      RowSink end,
      PageBatch.Results results,
      AtomicLong matched,
      StageStats stages,
      Evaluator evaluator,
      SearchControl control) {
    java.util.Iterator<Page> generated = onPages(plan) ? generatedPages(plan, evaluator) : null;
    if (generated == null
        && onPages(plan)
        && plan.generator().orElseThrow() instanceof PluginCommand plugin) {
      PageReduce pipeline =
          PageReduce.overResults(
              plan.pipeline(), evaluator, results::add, stages, 0, SearchService.pageSize());
      long[] rows = {0};
      try {
        io.quarry.ql.exec.PluginOperators.generatePages(
            plugin,
            evaluator,
            page -> {
              if (control.readAndCheck(page.positionCount())) {
                return false;
              }
              rows[0] += page.positionCount();
              return pipeline.add(page);
            });
        pipeline.finish();
      } finally {
        pipeline.close();
      }
      end.finish();
      matched.addAndGet(rows[0]);
      return ScanStats.generated(rows[0]);
    }
    if (generated != null) {
      long rows =
          feedPages(
              generated,
              PageReduce.overResults(
                  plan.pipeline(), evaluator, results::add, stages, 0, SearchService.pageSize()),
              control);
      end.finish();
      matched.addAndGet(rows);
      return ScanStats.generated(rows);
    }
    // a generator makes rows: it and every command after it are row stages
    List<String> rowStages = new ArrayList<>();
    rowStages.add(plan.generator().orElseThrow().name());
    plan.pipeline().forEach(command -> rowStages.add(command.name()));
    evaluator.rowStages().enter(rowStages);
    RowSink pipeline = Pipelines.build(plan.pipeline(), end, evaluator, stages, 0);
    long rows =
        switch (plan.generator().orElseThrow()) {
          case io.quarry.ql.ast.InputLookupCommand input -> {
            io.quarry.ql.exec.LookupTable table = lookups.table(input.table());
            if (table != null) { // held for this search while it runs: counted, as lookup's
              evaluator.memory("inputlookup").add(table.estimatedBytes());
            }
            yield feed(lookupRows(table), pipeline, control);
          }
          case io.quarry.ql.ast.HelpCommand help ->
              feed(help.rows().stream().map(io.quarry.ql.exec.MapRow::new), pipeline, control);
          case io.quarry.ql.ast.MakeResultsCommand make ->
              feed(madeResults(make, evaluator.now()), pipeline, control);
          case io.quarry.ql.ast.DbinspectCommand dbinspect ->
              feed(
                  Dbinspect.rows(store, store.resolve(plan.indexPatterns())).stream(),
                  pipeline,
                  control);
          case PluginCommand plugin ->
              io.quarry.ql.exec.PluginOperators.generate(plugin, evaluator, pipeline);
          default ->
              throw new IllegalStateException("not a generating command: " + plan.generator());
        };
    matched.addAndGet(rows);
    return ScanStats.generated(rows);
  }

  /**
   * Whether a generator's search runs on pages: the generator makes pages ({@code makeresults}
   * without inline data, {@code inputlookup}, {@code dbinspect}, {@code help}, a plugin's
   * generating command — the built-in {@code makeresults format=… data=…} and {@code gentimes}
   * among them — driven directly) and every command after it has a page stage ({@link PageReduce}:
   * the page chain's, {@code sort}, {@code head}, {@code dedup}, an aggregation, the built-in page
   * operators).
   */
  static boolean onPages(SearchPlan plan) {
    return PageBatch.enabled()
        && (plan.generator().orElse(null) instanceof io.quarry.ql.ast.MakeResultsCommand
            || plan.generator().orElse(null) instanceof io.quarry.ql.ast.InputLookupCommand
            || plan.generator().orElse(null) instanceof io.quarry.ql.ast.DbinspectCommand
            || plan.generator().orElse(null) instanceof io.quarry.ql.ast.HelpCommand
            || plan.generator().orElse(null) instanceof PluginCommand)
        && ReduceCoverage.supportsOverResults(plan.pipeline());
  }

  /**
   * A generator's results made straight as pages ({@code | makeresults} without inline data, {@code
   * | inputlookup t}, {@code | dbinspect}, {@code | help}); null when it generates rows only.
   */
  private java.util.Iterator<Page> generatedPages(SearchPlan plan, Evaluator evaluator) {
    Command generator = plan.generator().orElseThrow();
    return switch (generator) {
      case io.quarry.ql.ast.DbinspectCommand dbinspect ->
          Dbinspect.pages(store, store.resolve(plan.indexPatterns()), SearchService.pageSize());
      case io.quarry.ql.ast.HelpCommand help -> {
        List<Page> pages = new ArrayList<>();
        io.quarry.ql.exec.ResultPages.emit(
            new ArrayList<>(help.rows()), SearchService.pageSize(), pages::add);
        yield pages.iterator();
      }
      case io.quarry.ql.ast.MakeResultsCommand make ->
          new io.quarry.ql.exec.MakeResultsPages(make, evaluator.now(), SearchService.pageSize());
      case io.quarry.ql.ast.InputLookupCommand input -> {
        io.quarry.ql.exec.LookupTable table = lookups.table(input.table());
        if (table != null) { // held for this search while it runs: counted, as lookup's
          evaluator.memory("inputlookup").add(table.estimatedBytes());
        }
        yield new io.quarry.ql.exec.LookupPages(table, SearchService.pageSize());
      }
      default -> null;
    };
  }

  /** {@code | makeresults}' rows, made one at a time: {@code _time} and, annotated, Splunk's. */
  static java.util.stream.Stream<Row> madeResults(
      io.quarry.ql.ast.MakeResultsCommand make, Instant now) {
    long micros = Math.multiplyExact(now.getEpochSecond(), 1_000_000L) + now.getNano() / 1_000;
    return java.util.stream.Stream.<Row>generate(
            () -> {
              java.util.Map<String, Object> row = new java.util.LinkedHashMap<>();
              row.put("_time", micros);
              if (make.annotate()) {
                row.put("_raw", "");
                row.put("host", "");
                row.put("source", "");
                row.put("sourcetype", "");
                row.put("splunk_server", "quarry");
              }
              return new io.quarry.ql.exec.MapRow(row);
            })
        .limit(make.count());
  }

  /**
   * A lookup table's rows, made one at a time as the pipeline takes them (none when the table was
   * deleted since the search was planned).
   */
  static java.util.stream.Stream<Row> lookupRows(io.quarry.ql.exec.LookupTable table) {
    if (table == null) {
      return java.util.stream.Stream.empty();
    }
    return table.rows().stream()
        .map(
            cells -> {
              java.util.Map<String, Object> values = new java.util.LinkedHashMap<>();
              for (int i = 0; i < cells.size(); i++) {
                if (!cells.get(i).isEmpty()) {
                  values.put(table.columns().get(i), cells.get(i));
                }
              }
              return new io.quarry.ql.exec.MapRow(values);
            });
  }

  /**
   * Generated rows through the pipeline until it has enough or the control stops the search (time
   * limit, finalize, cancel: asked every {@value SearchControl#EVERY} rows, as scans do).
   */
  static long feed(java.util.stream.Stream<Row> rows, RowSink pipeline, SearchControl control) {
    long fed = 0;
    for (java.util.Iterator<Row> it = rows.iterator(); it.hasNext(); ) {
      if (fed > 0 && fed % SearchControl.EVERY == 0 && control.readAndCheck(SearchControl.EVERY)) {
        break;
      }
      fed++;
      if (!pipeline.accept(it.next())) {
        break;
      }
    }
    control.read((int) (fed % SearchControl.EVERY)); // the remainder, for progress
    pipeline.finish();
    return fed;
  }

  /**
   * Generated pages through the pipeline's page stages until they want no more or the control stops
   * the search (asked per page); the positions made.
   */
  static long feedPages(
      java.util.Iterator<Page> pages, PageReduce pipeline, SearchControl control) {
    long fed = 0;
    try {
      while (pages.hasNext()) {
        Page page = pages.next();
        if (control.readAndCheck(page.positionCount())) {
          break;
        }
        fed += page.positionCount();
        if (!pipeline.add(page)) {
          break;
        }
      }
      pipeline.finish();
    } finally {
      pipeline.close();
    }
    return fed;
  }
}
