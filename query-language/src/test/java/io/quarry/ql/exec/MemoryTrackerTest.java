package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;
import org.junit.jupiter.api.Test;

/**
 * What a tracker reserves on its account follows what it holds: a few rows reserve a few KiB, a
 * growing holding at most twice its size (and one chunk past it once large), each release exactly
 * what was reserved.
 */
class MemoryTrackerTest {
  @Test
  void aFewRowsReserveTheFirstReservationNotAChunk() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    MemoryTracker tracker = new MemoryTracker(account, "rows");
    tracker.add(5 * MemoryTracker.ROW_BYTES);
    assertThat(account.used()).isEqualTo(4 << 10);
    tracker.add(-5 * MemoryTracker.ROW_BYTES); // handed on
    tracker.add(5 * MemoryTracker.ROW_BYTES); // the next five fit in what is reserved
    assertThat(account.used()).isEqualTo(4 << 10);
    tracker.release();
    assertThat(account.used()).isZero();
    tracker.release(); // nothing left to give back
    assertThat(account.used()).isZero();
  }

  @Test
  void reservationsDoubleUpToAChunkAndCoverWhatIsHeld() {
    MemoryAccount account = MemoryAccount.unbounded("test");
    MemoryTracker tracker = new MemoryTracker(account, "rows");
    long held = 0;
    for (int i = 0; i < 10_000; i++) {
      tracker.add(MemoryTracker.ROW_BYTES);
      held += MemoryTracker.ROW_BYTES;
      assertThat(account.used()).as("row %d", i).isGreaterThanOrEqualTo(held);
      assertThat(account.used())
          .as("row %d", i)
          .isLessThanOrEqualTo(Math.max(2 * held, MemoryTracker.FIRST))
          .isLessThanOrEqualTo(held + MemoryTracker.CHUNK);
    }
    tracker.add(1L << 20); // one large addition reserves what it needs
    assertThat(account.used()).isGreaterThanOrEqualTo(held + (1L << 20));
    tracker.release();
    assertThat(account.used()).isZero();
  }

  @Test
  void twoTrackersOfFewRowsFitWhereTwoChunksWouldNot() {
    MemoryAccount account = new MemoryAccount("search", 400L << 10);
    MemoryTracker batches = new MemoryTracker(account, "rows");
    MemoryTracker answer = batches.sibling();
    batches.add(5 * MemoryTracker.ROW_BYTES);
    answer.add(5 * MemoryTracker.ROW_BYTES);
    assertThat(account.used()).isEqualTo(2 * MemoryTracker.FIRST);
    batches.release();
    answer.release();
    assertThat(account.used()).isZero();
  }

  @Test
  void overTheLimitNothingIsCountedAndTheReleaseGivesBackWhatWasReserved() {
    MemoryAccount account = new MemoryAccount("search", 100_000);
    MemoryTracker tracker = new MemoryTracker(account, "rows");
    tracker.add(60_000);
    long reserved = account.used();
    assertThatThrownBy(() -> tracker.add(60_000))
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("rows");
    assertThat(tracker.used()).isEqualTo(60_000);
    assertThat(account.used()).isEqualTo(reserved);
    tracker.release();
    assertThat(account.used()).isZero();
  }

  @Test
  void nearTheLimitAStepAheadRefusedReservesWhatIsNeededAndARefusalNamesThat() {
    MemoryAccount account = new MemoryAccount("search", 400L << 10);
    MemoryTracker tracker = new MemoryTracker(account, "rows");
    tracker.add(300L << 10);
    assertThat(account.used()).isEqualTo(300L << 10);
    tracker.add(50L << 10); // the 256 KiB step ahead does not fit; the 50 KiB needed do
    assertThat(account.used()).isEqualTo(350L << 10);
    assertThatThrownBy(() -> tracker.add(60L << 10))
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("needs " + (60L << 10) + " more bytes");
    assertThat(tracker.used()).isEqualTo(350L << 10);
    assertThat(account.used()).isEqualTo(350L << 10);
    tracker.release();
    assertThat(account.used()).isZero();
  }

  @Test
  void rowsAddedOneByOneUnderTheLimitAreNeverRefused() {
    MemoryAccount account = new MemoryAccount("search", 400L << 10);
    MemoryTracker tracker = new MemoryTracker(account, "rows");
    // 600 rows of 512 bytes: 300 KiB held, under the 400 KiB limit, though the doubling step past
    // 256 KiB reserved would ask for 512 KiB (review-c, session 32)
    for (int i = 0; i < 600; i++) {
      tracker.add(MemoryTracker.ROW_BYTES);
    }
    assertThat(tracker.used()).isEqualTo(600L * MemoryTracker.ROW_BYTES);
    tracker.release();
    assertThat(account.used()).isZero();
  }
}
