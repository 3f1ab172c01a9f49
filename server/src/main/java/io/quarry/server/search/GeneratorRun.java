package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.ScanStats;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.PagesSource;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.plan.SearchPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A search that starts with a generating command instead of an index scan ({@code | makeresults},
 * {@code | inputlookup t}, {@code | help}, {@code | dbinspect}, a plugin's generator — the built-in
 * {@code makeresults format=… data=…} and {@code gentimes} among them, driven directly): its
 * results made straight as pages through the commands after it ({@link PageReduce} over results).
 */
final class GeneratorRun {
  private final EventStore store;
  private final io.quarry.server.lookups.LookupStore lookups;

  GeneratorRun(EventStore store, io.quarry.server.lookups.LookupStore lookups) {
    this.store = requireNonNull(store, "store is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
  }

  /** A generating command's results through the whole pipeline, into {@code results}. */
  ScanStats run(
      SearchPlan plan,
      PageResults results,
      AtomicLong matched,
      StageStats stages,
      Evaluator evaluator,
      SearchControl control) {
    PageReduce pipeline =
        PageReduce.overResults(
            plan.pipeline(), evaluator, results::add, stages, 0, SearchService.pageSize());
    long rows;
    if (plan.generator().orElseThrow() instanceof PluginCommand plugin) {
      rows =
          io.quarry.ql.exec.PluginOperators.generateInto(
              plugin, evaluator, pipeline, page -> control.readAndCheck(page.positionCount()));
    } else {
      rows = feedPages(generatedPages(plan, evaluator), pipeline, control);
    }
    matched.addAndGet(rows);
    return ScanStats.generated(rows);
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
      default -> throw new IllegalStateException("not a generating command: " + generator);
    };
  }

  /**
   * Generated pages pulled through the pipeline's page stages ({@link PageReduce#pullFrom}, a
   * {@link PagesSource}) until they want no more — a page is made only when the stages ask for it,
   * so a satisfied {@code head} stops the generator — or the control stops the search (asked per
   * page); the positions made.
   */
  static long feedPages(
      java.util.Iterator<Page> pages, PageReduce pipeline, SearchControl control) {
    PagesSource source = new PagesSource(pages, control::readAndCheck);
    try {
      pipeline.pullFrom(source);
      pipeline.run();
    } finally {
      pipeline.close();
    }
    return source.positions();
  }
}
