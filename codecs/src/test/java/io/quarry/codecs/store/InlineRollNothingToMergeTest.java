package io.quarry.codecs.store;

import static io.quarry.codecs.store.HeldInlineRoll.states;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A roll whose forced merge merges nothing (compaction inline, a full bucket of fewer segments than
 * {@link CompactionMergePolicy#ROLL_SEGMENTS}) compacts nothing, so it needs none of the node's
 * {@link CompactionPermits}: it rolls at once while another index's roll merges on the node's only
 * permit. Taking a permit for it leaves the bucket {@code rolling} and its index's hot bucket
 * growing (then, past {@code maxWaitingBuckets}, refusing adds) for a roll that costs one commit.
 */
class InlineRollNothingToMergeTest {
  // one scheduler each: the first index's maintenance stalls in its roll while the second's runs
  @RegisterExtension final StoreFixture firstStores = new StoreFixture();
  @RegisterExtension final StoreFixture secondStores = new StoreFixture();

  @Test
  void aRollThatMergesNothingRollsWhileAnotherIndexsRollHoldsThePermit() throws Exception {
    try (HeldInlineRoll roll = HeldInlineRoll.open(firstStores, secondStores)) {
      IndexStore second = roll.second();
      second.add(NumberedEvents.events(0, 12_000)); // one segment: its roll merges nothing
      second.commit();
      roll.holdFirstRoll();

      secondStores.scheduler().maintenance(0); // full: its roll merges nothing
      assertThat(states(second))
          .as("the second index's one-segment bucket rolls without a permit")
          .containsExactly("warm", "hot");
      assertThat(roll.firstRollDone()).as("the first roll still merges").isFalse();

      roll.finishFirstRoll();
      assertThat(second.count()).isEqualTo(12_000);
    }
  }
}
