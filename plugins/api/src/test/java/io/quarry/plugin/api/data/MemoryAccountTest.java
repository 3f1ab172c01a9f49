package io.quarry.plugin.api.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** A search's account under a parent (the server's breaker over all searches). */
class MemoryAccountTest {
  @Test
  void aReservationPastTheParentFailsAndReservesNothingAnywhere() {
    MemoryAccount all = new MemoryAccount("all searches", 1_000);
    MemoryAccount first = new MemoryAccount("first", 800, all);
    MemoryAccount second = new MemoryAccount("second", 800, all);
    first.reserve(600, "stats");
    assertThatThrownBy(() -> second.reserve(500, "sort"))
        .isInstanceOf(MemoryLimitExceededException.class)
        .hasMessageContaining("all searches")
        .satisfies(
            e -> assertThat(((MemoryLimitExceededException) e).owner()).isEqualTo("all searches"));
    assertThat(second.used()).isZero();
    assertThat(all.used()).isEqualTo(600);
    // its own ceiling first: the parent is not asked
    assertThatThrownBy(() -> first.reserve(300, "stats"))
        .isInstanceOf(MemoryLimitExceededException.class)
        .satisfies(e -> assertThat(((MemoryLimitExceededException) e).owner()).isEqualTo("first"));
    assertThat(all.used()).isEqualTo(600);
    first.release(200);
    assertThat(all.used()).isEqualTo(400);
    second.reserve(500, "sort");
    assertThat(all.used()).isEqualTo(900);
  }

  @Test
  void closingGivesBackWhatTheSearchStillHoldsOnceAndLaterCallsStayLocal() {
    MemoryAccount all = new MemoryAccount("all searches", 1_000);
    MemoryAccount search = new MemoryAccount("search", 1_000, all);
    search.reserve(700, "stats");
    search.release(100);
    search.close();
    assertThat(all.used()).isZero();
    search.close();
    search.release(600); // an operator releasing after the end
    search.reserve(50, "late");
    assertThat(all.used()).isZero();
    // without a parent close does nothing
    MemoryAccount alone = new MemoryAccount("alone", 10);
    alone.reserve(5, "x");
    alone.close();
    assertThat(alone.used()).isEqualTo(5);
  }

  @Test
  void concurrentSearchesNeverLeaveTheParentOverItsLimitOrHoldingBytes() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("MemoryAccountTest seed " + seed);
    MemoryAccount all = new MemoryAccount("all searches", 100_000);
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        Random random = new Random(seed + t);
        done.add(
            threads.submit(
                () -> {
                  MemoryAccount search = new MemoryAccount("search", 60_000, all);
                  List<Integer> held = new ArrayList<>();
                  for (int i = 0; i < 2_000; i++) {
                    if (held.isEmpty() || random.nextBoolean()) {
                      int bytes = 1 + random.nextInt(5_000);
                      try {
                        search.reserve(bytes, "op");
                        held.add(bytes);
                      } catch (MemoryLimitExceededException over) {
                        // refused: nothing reserved
                      }
                    } else {
                      search.release(held.remove(held.size() - 1));
                    }
                    assertThat(all.used()).isLessThanOrEqualTo(all.limit());
                  }
                  search.close(); // whatever is still held
                  return null;
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
    } finally {
      threads.shutdownNow();
    }
    assertThat(all.used()).as("seed " + seed).isZero();
  }
}
