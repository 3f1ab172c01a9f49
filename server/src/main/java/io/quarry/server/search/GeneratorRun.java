package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.ScanStats;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.RowSink;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.plan.SearchPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A search that starts with a generating command instead of an index scan ({@code | makeresults},
 * {@code | inputlookup t}, {@code | help}, {@code | dbinspect}, a plugin's generator): its results
 * made straight as pages through the page stages; a command after it without a page stage there is
 * refused (no row pipeline runs generators since session 27).
 */
final class GeneratorRun {
  private final EventStore store;
  private final io.quarry.server.lookups.LookupStore lookups;

  GeneratorRun(EventStore store, io.quarry.server.lookups.LookupStore lookups) {
    this.store = requireNonNull(store, "store is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
  }

  /**
   * A generating command's pages through the whole pipeline: {@code | inputlookup t} (one row per
   * table row, a field per non-empty cell), {@code | makeresults}, {@code | help}, {@code |
   * dbinspect}, or a plugin's generating command.
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
    // no page form for a command after the generator: refused (no row pipeline since session 27)
    List<String> commands = new ArrayList<>();
    commands.add(plan.generator().orElseThrow().name());
    plan.pipeline().forEach(command -> commands.add(command.name()));
    throw io.quarry.ql.exec.RowStages.refusal(commands);
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
    return (plan.generator().orElse(null) instanceof io.quarry.ql.ast.MakeResultsCommand
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
