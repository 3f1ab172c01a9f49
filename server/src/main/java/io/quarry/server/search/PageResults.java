package io.quarry.server.search;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.StageStats;

/**
 * Where a search's answer goes as whole pages, whichever path made them (a batch search's {@link
 * PageBatch}, the time-ordered chains, listings, generators, plugin commands over events): the
 * collector of the answer, the most rows it takes (search.maxResultRows), the stage counts.
 */
record PageResults(PageCollector collector, long maxRows, StageStats stages) {
  /**
   * Hands on a page, the one that crosses the row limit cut to it, without the hidden columns the
   * commands carried to its end ({@code table _raw, n} keeps the events' own text with {@code
   * _raw}); false once the answer is full (nothing more is wanted).
   */
  boolean add(Page page) {
    long room = maxRows - collector.rows();
    if (room <= 0) {
      return false;
    }
    Page answer = ListingColumns.withoutHidden(page);
    Page taken =
        answer.positionCount() <= room ? answer : PageReduce.firstPositions(answer, (int) room);
    collector.emit(taken);
    stages.out(taken.positionCount());
    return taken.positionCount() < room;
  }
}
