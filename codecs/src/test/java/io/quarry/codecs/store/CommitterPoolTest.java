package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The node's committer pool ({@link CommitterPool}) and each index's serial queue on it ({@link
 * IndexCommitQueue}): many indexes on a few threads, one index's tasks one at a time and in order,
 * and an index whose task stalls holding one thread while the others go on.
 */
class CommitterPoolTest {
  private static final int BOUND_SECONDS = 30;

  @Test
  void fiftyIndexesRunOnFourThreadsEachIndexInOrderAndNeverTwiceAtOnce() throws Exception {
    int indexes = 50;
    int tasks = 200;
    CommitterPool pool = new CommitterPool(4);
    try {
      List<List<Integer>> ran = new ArrayList<>();
      List<AtomicInteger> running = new ArrayList<>();
      Set<String> threads = ConcurrentHashMap.newKeySet();
      AtomicInteger overlaps = new AtomicInteger();
      AtomicInteger busy = new AtomicInteger();
      AtomicInteger mostBusy = new AtomicInteger();
      CountDownLatch done = new CountDownLatch(indexes * tasks);
      List<IndexCommitQueue> queues = new ArrayList<>();
      for (int index = 0; index < indexes; index++) {
        ran.add(new ArrayList<>()); // read by the index's tasks only: confined if serial
        running.add(new AtomicInteger());
        queues.add(pool.queue("index-" + index));
      }
      // every index's tasks queued from one thread each, interleaved with the other indexes'
      List<Thread> submitters = new ArrayList<>();
      for (int submitter = 0; submitter < 2; submitter++) {
        int first = submitter;
        Thread thread =
            new Thread(
                () -> {
                  for (int task = 0; task < tasks; task++) {
                    for (int index = first; index < indexes; index += 2) {
                      int number = task;
                      int of = index;
                      queues
                          .get(index)
                          .execute(
                              () -> {
                                if (running.get(of).incrementAndGet() != 1) {
                                  overlaps.incrementAndGet();
                                }
                                mostBusy.accumulateAndGet(busy.incrementAndGet(), Math::max);
                                threads.add(poolName(Thread.currentThread(), "index-" + of));
                                ran.get(of).add(number);
                                Thread.onSpinWait();
                                busy.decrementAndGet();
                                running.get(of).decrementAndGet();
                                done.countDown();
                              });
                    }
                  }
                });
        thread.start();
        submitters.add(thread);
      }
      for (Thread thread : submitters) {
        thread.join();
      }
      assertThat(done.await(BOUND_SECONDS, TimeUnit.SECONDS)).as("every task ran").isTrue();
      assertThat(overlaps).as("tasks of one index that ran at once").hasValue(0);
      assertThat(mostBusy.get()).as("tasks running at once").isBetween(1, 4);
      assertThat(threads)
          .as("the threads that ran them")
          .hasSizeBetween(1, 4)
          .allSatisfy(name -> assertThat(name).matches("quarry-committer-\\d+"));
      List<Integer> inOrder = java.util.stream.IntStream.range(0, tasks).boxed().toList();
      for (int index = 0; index < indexes; index++) {
        assertThat(ran.get(index))
            .as("index-%d's tasks, in the order queued", index)
            .isEqualTo(inOrder);
      }
    } finally {
      pool.stop(BOUND_SECONDS);
    }
  }

  @Test
  void anIndexWhoseTaskStallsHoldsOneThreadAndTheOthersGoOn() throws Exception {
    CommitterPool pool = new CommitterPool(2);
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try {
      IndexCommitQueue slow = pool.queue("slow");
      List<String> slowRan = new ArrayList<>();
      CountDownLatch slowDone = new CountDownLatch(1);
      slow.execute(
          () -> {
            entered.countDown();
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            slowRan.add("stalled");
          });
      slow.execute(
          () -> {
            slowRan.add("after");
            slowDone.countDown();
          });
      assertThat(entered.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();

      int others = 20;
      CountDownLatch othersDone = new CountDownLatch(others * 10);
      Set<String> threads = ConcurrentHashMap.newKeySet();
      for (int index = 0; index < others; index++) {
        String name = "fast-" + index;
        IndexCommitQueue queue = pool.queue(name);
        for (int task = 0; task < 10; task++) {
          queue.execute(
              () -> {
                threads.add(poolName(Thread.currentThread(), name));
                othersDone.countDown();
              });
        }
      }
      assertThat(othersDone.await(BOUND_SECONDS, TimeUnit.SECONDS))
          .as("the other indexes' tasks ran while slow's stalls")
          .isTrue();
      assertThat(threads).as("on the one thread slow does not hold").hasSize(1);
      assertThat(slowDone.getCount()).as("slow's next task waits for its stalled one").isOne();

      release.countDown();
      assertThat(slowDone.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(slowRan).containsExactly("stalled", "after");
    } finally {
      release.countDown();
      pool.stop(BOUND_SECONDS);
    }
  }

  @Test
  void repeatedWorkRunsAgainAfterEachRunUntilCancelled() throws Exception {
    CommitterPool pool = new CommitterPool(1);
    try {
      IndexCommitQueue queue = pool.queue("main");
      AtomicInteger runs = new AtomicInteger();
      AtomicInteger overlaps = new AtomicInteger();
      AtomicInteger running = new AtomicInteger();
      CountDownLatch fiveRuns = new CountDownLatch(5);
      IndexScheduler.Periodic periodic =
          queue.repeat(
              () -> {
                if (running.incrementAndGet() != 1) {
                  overlaps.incrementAndGet();
                }
                try {
                  if (runs.incrementAndGet() == 2) {
                    throw new IllegalStateException("a failed run does not stop the work");
                  }
                  fiveRuns.countDown();
                } finally {
                  running.decrementAndGet();
                }
              },
              5);
      assertThat(fiveRuns.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
      periodic.cancel();
      int cancelledAt = runs.get();
      Thread.sleep(100);
      assertThat(runs.get())
          .as("no run starts after the cancel")
          .isLessThanOrEqualTo(cancelledAt + 1);
      assertThat(overlaps).hasValue(0);
    } finally {
      pool.stop(BOUND_SECONDS);
    }
  }

  @Test
  void aThreadIsNamedForTheIndexWhoseTaskItRunsAndRenamedAfter() throws Exception {
    CommitterPool pool = new CommitterPool(1);
    try {
      List<String> names = java.util.Collections.synchronizedList(new ArrayList<>());
      List<Thread> ran = java.util.Collections.synchronizedList(new ArrayList<>());
      CountDownLatch done = new CountDownLatch(2);
      for (String index : List.of("web", "audit_2")) {
        pool.queue(index)
            .execute(
                () -> {
                  names.add(Thread.currentThread().getName());
                  ran.add(Thread.currentThread());
                  done.countDown();
                });
      }
      assertThat(done.await(BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
      assertThat(names)
          .as("a thread dump names the index a committer works for")
          .hasSize(2)
          .anySatisfy(name -> assertThat(name).matches("quarry-committer-\\d+ \\[web\\]"))
          .anySatisfy(name -> assertThat(name).matches("quarry-committer-\\d+ \\[audit_2\\]"));
      Thread thread = ran.get(0);
      Timed.until(BOUND_SECONDS, () -> thread.getName().matches("quarry-committer-\\d+"));
      assertThat(thread.getName())
          .as("the pool's name again between tasks")
          .matches("quarry-committer-\\d+");
    } finally {
      pool.stop(BOUND_SECONDS);
    }
  }

  /**
   * The pool's name of {@code thread}, running a task of {@code index}: its name without the
   * index's in brackets ({@link IndexCommitQueue}), or its whole name when it does not end so.
   */
  private static String poolName(Thread thread, String index) {
    String name = thread.getName();
    String suffix = " [" + index + "]";
    return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
  }
}
