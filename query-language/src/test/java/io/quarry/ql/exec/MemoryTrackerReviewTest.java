package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThatCode;

import io.quarry.plugin.api.data.MemoryAccount;
import org.junit.jupiter.api.Test;

/** review-c: a tracker holding well under the search's limit is refused by its step ahead. */
class MemoryTrackerReviewTest {
  @Test
  void holdingUnderTheLimitIsNotRefused() {
    MemoryAccount account = new MemoryAccount("search", 400L << 10);
    MemoryTracker tracker = new MemoryTracker(account, "rows");
    // 600 rows of 512 bytes: 300 KiB held, under the 400 KiB limit; the doubling step past
    // 256 KiB reserved asks for another 256 KiB (512 KiB) and is refused
    assertThatCode(
            () -> {
              for (int i = 0; i < 600; i++) {
                tracker.add(MemoryTracker.ROW_BYTES);
              }
            })
        .doesNotThrowAnyException();
  }
}
