package io.quarry.codecs.store;

import static io.quarry.codecs.store.HeldInlineRoll.states;
import static org.assertj.core.api.Assertions.assertThat;

import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A roll that compacts (compaction inline: its forced merge under the commit lock) takes one of the
 * node's {@link CompactionPermits}, as a deferred compaction does: while one index's inline roll
 * merges on the node's only permit, another index's full bucket waits for its roll ({@code
 * rolling}, its hot bucket taking the events) and rolls at its next commit once the permit is free.
 * Before, each index's roll merged at once on its own committer, unbounded, and this test failed:
 * the second index's bucket rolled while the first's roll still merged.
 */
class InlineRollPermitTest {
  // one scheduler each: the first index's maintenance stalls in its roll while the second's runs
  @RegisterExtension final StoreFixture firstStores = new StoreFixture();
  @RegisterExtension final StoreFixture secondStores = new StoreFixture();

  @Test
  void inlineRollsOfTwoIndexesMergeOneAtATimeOnOnePermit() throws Exception {
    try (HeldInlineRoll roll = HeldInlineRoll.open(firstStores, secondStores)) {
      IndexStore second = roll.second();
      StoreFixture.fill(second, 0, 12_000);
      roll.holdFirstRoll();

      secondStores.scheduler().maintenance(0); // full: its roll finds no permit free
      assertThat(states(second))
          .as("the second index's full bucket waits for its roll; a new hot bucket takes events")
          .containsExactly("rolling", "hot");
      second.add(NumberedEvents.events(12_000, 100));
      assertThat(roll.firstRollDone()).as("the first roll still merges").isFalse();

      roll.finishFirstRoll();
      secondStores.scheduler().maintenance(0); // the permit is free: the waiting bucket rolls
      assertThat(states(second)).containsExactly("warm", "hot");
      assertThat(second.count()).isEqualTo(12_100);
    }
  }

  /**
   * A full bucket whose inline roll found no permit free rolls at its index's compaction check
   * (every second) once the permit is free, not only at its next commit ({@code commitInterval}, 10
   * s by default), while its index's hot bucket grows past its limit. Before, the compaction check
   * started only deferred compactions and this test failed: the bucket stayed {@code rolling}.
   */
  @Test
  void aWaitingInlineRollRollsAtTheCompactionCheckOnceThePermitIsFree() throws Exception {
    CompactionPermits node = new CompactionPermits(1);
    try (IndexStore waiting =
        secondStores.open("waiting", HeldInlineRoll.INLINE, FSDirectory::open, node)) {
      StoreFixture.fill(waiting, 0, 12_000); // six segments: its roll's forceMerge(4) merges
      try (java.io.Closeable held = node.hold()) {
        secondStores.scheduler().maintenance(0); // full: its roll finds no permit free
        assertThat(states(waiting)).containsExactly("rolling", "hot");
        secondStores.scheduler().compaction(0); // still no permit: nothing rolls
        assertThat(states(waiting)).containsExactly("rolling", "hot");
      }
      secondStores.scheduler().compaction(0); // the permit is free: no commit runs
      assertThat(states(waiting))
          .as("the waiting bucket rolled at the compaction check")
          .containsExactly("warm", "hot");
      assertThat(waiting.count()).isEqualTo(12_000);
    }
  }
}
