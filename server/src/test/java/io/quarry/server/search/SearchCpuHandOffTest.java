package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Work handed to the search pool from inside a search without the search's own view of the pool
 * ({@link SearchCpu#onCurrent}: the export route's encoding helpers) counts in that search's CPU; a
 * task handed over outside any search counts in none; a search started inside another on the same
 * thread (a subsearch) gives the thread back to the outer one when it stops. A real thread pool,
 * real thread CPU.
 */
class SearchCpuHandOffTest {
  private static final Duration BURN = Duration.ofMillis(60);

  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void close() throws InterruptedException {
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void workHandedOverFromInsideASearchCountsInIt() throws Exception {
    java.util.concurrent.Executor helpers = SearchCpu.onCurrent(pool);
    SearchCpu search = SearchCpu.start(pool);
    runAndWait(helpers);
    Duration spent = search.stop();
    assertThat(spent).isGreaterThanOrEqualTo(BURN.multipliedBy(9).dividedBy(10));
  }

  @Test
  void workHandedOverOutsideASearchCountsInNone() throws Exception {
    java.util.concurrent.Executor helpers = SearchCpu.onCurrent(pool);
    SearchCpu search = SearchCpu.start(pool);
    Duration before = search.stop(); // the thread runs no search any more
    assertThat(SearchCpu.current()).isNull();
    runAndWait(helpers);
    assertThat(before).isLessThan(BURN.dividedBy(2));
  }

  @Test
  void aSearchInsideAnotherGivesTheThreadBack() throws Exception {
    java.util.concurrent.Executor helpers = SearchCpu.onCurrent(pool);
    SearchCpu outer = SearchCpu.start(pool);
    SearchCpu inner = SearchCpu.start(pool);
    assertThat(SearchCpu.current()).isSameAs(inner);
    inner.stop();
    assertThat(SearchCpu.current()).isSameAs(outer);
    runAndWait(helpers); // after the inner search: the outer one's
    assertThat(outer.stop()).isGreaterThanOrEqualTo(BURN.multipliedBy(9).dividedBy(10));
    assertThat(SearchCpu.current()).isNull();
  }

  @Test
  void aMeasuredTaskHandsItsOwnHelpersToItsSearch() throws Exception {
    java.util.concurrent.Executor helpers = SearchCpu.onCurrent(pool);
    SearchCpu search = SearchCpu.start(pool);
    CountDownLatch done = new CountDownLatch(1);
    // a slice on the search's view of the pool hands a helper on: both on the search's account
    search
        .pool()
        .execute(
            () -> {
              try {
                runAndWait(helpers);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              done.countDown();
            });
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(search.stop()).isGreaterThanOrEqualTo(BURN.multipliedBy(9).dividedBy(10));
  }

  /** Hands {@code executor} a task burning {@link #BURN} of its thread's CPU and waits for it. */
  private static void runAndWait(java.util.concurrent.Executor executor)
      throws InterruptedException {
    CountDownLatch done = new CountDownLatch(1);
    executor.execute(
        () -> {
          burn();
          done.countDown();
        });
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
  }

  private static void burn() {
    long until = SearchCpu.threadNanos() + BURN.toNanos();
    long x = 0;
    while (SearchCpu.threadNanos() < until) {
      x += Long.numberOfTrailingZeros(x + 17) * 31;
    }
    if (x == 42) {
      System.out.println(x); // keep the loop
    }
  }
}
