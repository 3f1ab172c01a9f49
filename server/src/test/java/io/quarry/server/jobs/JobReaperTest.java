package io.quarry.server.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The job reaper on its own thread: it looks only when asked (a server without jobs never wakes
 * it), at the time asked, an earlier ask replacing a later one, and again when a look says so.
 */
class JobReaperTest {
  private final Clock clock = Clock.systemUTC();
  private final List<Long> looks = new CopyOnWriteArrayList<>();

  @Test
  void itNeverLooksUnasked() throws Exception {
    try (JobReaper reaper = new JobReaper(clock, this::lookNoMore)) {
      Thread.sleep(2_500); // the reaper of sessions before 46 looked every second
      assertThat(looks).isEmpty();
      assertThat(reaper.waiting()).isFalse();
    }
  }

  @Test
  void itLooksWhenAskedAndAgainWhenALookSaysSo() throws Exception {
    AtomicLong more = new AtomicLong(2); // two looks ask for another 200 ms on, the third for none
    try (JobReaper reaper =
        new JobReaper(
            clock,
            () -> {
              looks.add(clock.millis());
              return more.getAndDecrement() > 0 ? clock.millis() + 200 : Long.MAX_VALUE;
            })) {
      long asked = clock.millis();
      reaper.lookBy(asked + 5_000);
      reaper.lookBy(asked + 300); // earlier: replaces the later one
      reaper.lookBy(asked + 4_000); // later than the one asked: changes nothing
      assertThat(reaper.waiting()).isTrue();
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (looks.size() < 3 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(looks).hasSize(3);
      assertThat(looks.getFirst()).isBetween(asked + 300, asked + 3_000);
      assertThat(looks.get(1) - looks.getFirst()).isGreaterThanOrEqualTo(150);
      Thread.sleep(1_500);
      assertThat(looks).hasSize(3); // the last look asked for none
      assertThat(reaper.waiting()).isFalse();
    }
  }

  private long lookNoMore() {
    looks.add(clock.millis());
    return Long.MAX_VALUE;
  }
}
