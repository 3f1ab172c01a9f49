package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link BucketActivity} on a clock the test moves: an idle gap ends a burst, so the next burst's
 * natural merges wait again for their whole deferral time even when no compaction ended between the
 * two (its start waited for a permit, say).
 */
class BucketActivityTest {
  private static final long IDLE = Duration.ofSeconds(5).toNanos();

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

  private void move(Duration by) {
    nanos.addAndGet(by.toNanos());
  }

  @Test
  void anIdleGapWithoutACompactionStartsTheNextBurstsDeferralOver() {
    BucketActivity activity = new BucketActivity(IDLE, nanos::get);
    activity.added();
    assertThat(activity.mayDefer()).as("a burst's merges wait").isTrue();

    // the burst goes on for most of the deferral time
    move(Duration.ofNanos(BucketActivity.MAX_DEFERRAL_NANOS).minusSeconds(10));
    activity.added();
    assertThat(activity.mayDefer()).isTrue();

    // the bucket idles: its compaction is due but waits for a permit and has not run
    move(Duration.ofSeconds(6));
    assertThat(activity.idle()).isTrue();
    assertThat(activity.mayDefer()).as("an idle bucket's merges do not wait").isFalse();

    // events resume before the compaction ran: a new burst, whose merges wait again
    activity.added();
    assertThat(activity.mayDefer()).as("the new burst waits").isTrue();
    move(Duration.ofSeconds(30));
    activity.added();
    assertThat(activity.mayDefer())
        .as("30 s into the new burst, still within its own deferral time")
        .isTrue();
    move(Duration.ofNanos(BucketActivity.MAX_DEFERRAL_NANOS).minusSeconds(30));
    activity.added();
    assertThat(activity.mayDefer()).as("its own deferral time is out").isFalse();
  }

  @Test
  void withoutAnIdleGapTheDeferralEndsAfterItsTime() {
    BucketActivity activity = new BucketActivity(IDLE, nanos::get);
    activity.added();
    assertThat(activity.mayDefer()).isTrue();
    for (int i = 0; i < 30; i++) {
      move(Duration.ofSeconds(2));
      activity.added();
    }
    assertThat(activity.mayDefer()).as("a minute of events, never idle").isFalse();
    activity.compacted();
    assertThat(activity.mayDefer()).as("a compaction ended: waiting starts over").isTrue();
  }
}
