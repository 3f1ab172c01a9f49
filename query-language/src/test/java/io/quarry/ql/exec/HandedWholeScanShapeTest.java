package io.quarry.ql.exec;

import static io.quarry.ql.exec.EntryGroupedStatsTest.answer;
import static io.quarry.ql.exec.EntryGroupedStatsTest.page;
import static io.quarry.ql.exec.EntryGroupedStatsTest.stats;
import static io.quarry.ql.exec.SortedSessionPartials.mergeAll;
import static io.quarry.ql.exec.SortedSessionPartials.sortedDictionary;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Review (session 38, lane handover): the pages a real scan of one segment feeds {@code stats … by}
 * an index-time field of many values. The segment's dictionary is decoded whole only after the
 * scan's first lookups missed ({@code codecs.store.OrdinalTexts}: 256 misses at least), so the
 * first page of every segment scan holds a per-page dictionary (or plain texts) and is grouped by
 * text; only the pages after it refer to the whole dictionary and are grouped by entry ({@code
 * server.search.OrdinalColumn}). Seen in a real server search (one segment, 1,700 sessions): the
 * final's keys held the first page's groups when the entries were handed over, so no group was
 * handed whole and the likely order was never left ({@code EntryHandOverOrderSearchTest}, with a
 * debugging print in {@code EntryPartial.flushInto}: {@code keysEmpty=false}). Here the same shape
 * in the operator: one page by text, then pages by entry of one sorted dictionary, two partials
 * merged into a final — the hand-over the lane built for this search must take the entries' groups
 * unhashed. Failed on handover 1a4f9306 (groupsHandedWhole 0: handWhole only ran into an empty
 * aggregation); passes since 8081509f ({@code SortedEntries.handBeside}: the few keys found among
 * the sorted entries).
 */
class HandedWholeScanShapeTest {

  @Test
  void aScansFirstPageByTextThenPagesByEntry() {
    Random random = new Random(38);
    BytesBlock dictionary = sortedDictionary(20_000);
    List<Page[]> pages = new ArrayList<>();
    for (int p = 0, row = 0; p < 40; p++) {
      pages.add(page(random, dictionary, 1_024, row));
      row += 1_024;
    }
    StatsCommand command = stats("stats count, range(_time) AS d by session");
    HashAggregationOperator total =
        new HashAggregationOperator(command, MemoryTracker.unbounded("total"), 1_024);
    HashAggregationOperator[] partials = {total.newPartial(), total.newPartial()};
    for (int p = 0; p < pages.size(); p++) {
      // the scan's first page by text (form 0), every later one by entry (form 1)
      partials[p % 2].addInput(pages.get(p)[p == 0 ? 0 : 1]);
    }
    mergeAll(total, partials);
    int groups = answer(total).size();
    assertThat(groups).isGreaterThan(10_000);
    assertThat(total.pagesByEntry()).isEqualTo(pages.size() - 1);
    assertThat(total.groupsHandedWhole())
        .as("groups handed whole when a segment scan's first page went by text")
        .isGreaterThan(groups / 2);
  }
}
