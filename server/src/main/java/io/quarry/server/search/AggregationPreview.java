package io.quarry.server.search;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.StageStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The preview of a running batch search with an aggregation ({@link PageBatch}): whether the
 * commands after it may run over the groups merged so far, and what they answer over them now.
 */
final class AggregationPreview {
  private AggregationPreview() {}

  /**
   * Whether the commands after {@code stats} may run over the groups merged so far for a preview:
   * not where one writes ({@code outputlookup}, {@code collect}, a {@code map} whose searches may:
   * a preview would write the partial groups; Splunk's {@code run_in_preview} defaults to false).
   */
  static boolean previews(List<Command> reduce) {
    return reduce.stream().noneMatch(io.quarry.ql.plan.WritesEvents::mayWrite);
  }

  /**
   * What the running search would answer now: the groups merged so far through the commands after
   * {@code stats}; null once the search is finishing.
   */
  static List<Page> of(
      PageAggregator total,
      List<Command> reduce,
      Evaluator evaluator,
      int pageSize,
      AtomicBoolean finishing) {
    List<Page> pages = new ArrayList<>();
    PageReduce pipeline =
        PageReduce.overResults(
            reduce,
            evaluator,
            pages::add,
            new StageStats(reduce.stream().map(Command::name).toList()),
            0,
            pageSize);
    try {
      synchronized (total) {
        if (finishing.get()) {
          return null;
        }
        pipeline.pullFrom(io.quarry.ql.exec.PagesSource.of(total.snapshot().iterator()));
        pipeline.run();
      }
    } finally {
      pipeline.close();
    }
    return pages;
  }
}
