package io.quarry.ql.exec;

import static io.quarry.ql.exec.EntryGroupedStatsTest.answer;
import static io.quarry.ql.exec.EntryGroupedStatsTest.page;
import static io.quarry.ql.exec.EntryGroupedStatsTest.stats;
import static io.quarry.ql.exec.SortedSessionPartials.mergeAll;
import static io.quarry.ql.exec.SortedSessionPartials.sortedDictionary;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.HashAggregationOperator;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Review (session 38, lane handover): {@code groups_handed_whole} ({@code SearchStats}: "groups of
 * such a dictionary's entries handed to the final aggregation whole, no entry hashed"). Three
 * search threads' partials, each over its own segment of the same 5,000 session ids (three
 * dictionary blocks, equal texts, each sorted): each partial hands its entries whole into its own
 * empty keys when merged ({@code StatsMerge.mergeOn}: {@code partial.flushEntries}); the first
 * partial's keys are then taken whole by the final, but the next one's are looked up in the final's
 * keys key by key ({@code SharedMerge.alone}: every key hashed), and the final's own entries too.
 * The count adds every partial's hand-over all the same, so it passes the answer's groups — it
 * counts groups that were hashed after all; a count of groups never hashed is at most the groups
 * answered.
 */
class HandedWholeCountTest {

  @Test
  void theCountIsAtMostTheGroupsAnswered() {
    Random random = new Random(38);
    StatsCommand command = stats("stats count, range(_time) AS d by session");
    HashAggregationOperator total =
        new HashAggregationOperator(command, MemoryTracker.unbounded("total"), 1_024);
    HashAggregationOperator[] partials = new HashAggregationOperator[3];
    for (int s = 0; s < partials.length; s++) {
      partials[s] = total.newPartial();
      BytesBlock segment = sortedDictionary(5_000); // a segment of its own, the same texts
      for (int p = 0, row = 0; p < 20; p++) {
        partials[s].addInput(page(random, segment, 1_024, row)[1]);
        row += 1_024;
      }
    }
    mergeAll(total, partials);
    int groups = answer(total).size();
    assertThat(groups).isLessThanOrEqualTo(5_000).isGreaterThan(4_000);
    assertThat(total.groupsHandedWhole())
        .as("groups handed over without a hash, of %d answered", groups)
        .isLessThanOrEqualTo(groups)
        // the second partial's keys were looked up among the first's (taken whole): all hashed
        .isZero();
  }
}
