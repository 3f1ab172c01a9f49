package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * {@link SharedTasks} with a stop check (a cancelled search's): once it says stop no thread starts
 * a further task, and the caller throws a {@link CancellationException} after the running ones.
 */
class SharedTasksStopTest {
  private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
  private static final int TASKS = 300;
  private static final int STOP_AFTER = 20;

  @AfterAll
  static void shutdown() {
    POOL.shutdownNow();
  }

  @Test
  void onTheCallerAloneExactlyTheTasksBeforeTheStopRun() {
    AtomicIntegerArray runs = new AtomicIntegerArray(TASKS);
    AtomicInteger ended = new AtomicInteger();
    assertThatThrownBy(
            () ->
                SharedTasks.run(
                    TASKS,
                    i -> {
                      runs.incrementAndGet(i);
                      ended.incrementAndGet();
                    },
                    null,
                    3,
                    () -> ended.get() >= STOP_AFTER))
        .isInstanceOf(CancellationException.class);
    for (int i = 0; i < TASKS; i++) {
      assertThat(runs.get(i)).as("task %d", i).isEqualTo(i < STOP_AFTER ? 1 : 0);
    }
  }

  @Test
  void noThreadStartsATaskOnceTheStopSaidSo() throws InterruptedException {
    AtomicIntegerArray runs = new AtomicIntegerArray(TASKS);
    AtomicInteger ended = new AtomicInteger();
    AtomicInteger afterStop = new AtomicInteger();
    ThreadLocal<Boolean> toldToStop = ThreadLocal.withInitial(() -> false);
    BooleanSupplier stop =
        () -> {
          boolean now = ended.get() >= STOP_AFTER;
          if (now) {
            toldToStop.set(true); // this thread was told: it must start nothing after this
          }
          return now;
        };
    assertThatThrownBy(
            () ->
                SharedTasks.run(
                    TASKS,
                    i -> {
                      if (toldToStop.get()) {
                        afterStop.incrementAndGet();
                      }
                      runs.incrementAndGet(i);
                      sleep(1); // the helpers have time to start and take tasks
                      ended.incrementAndGet();
                    },
                    POOL,
                    3,
                    stop))
        .isInstanceOf(CancellationException.class);
    int ran = ended.get();
    Thread.sleep(50);
    assertThat(ended.get()).as("no task runs after the caller threw").isEqualTo(ran);
    assertThat(afterStop.get()).isZero();
    // the stop says stop once STOP_AFTER tasks ended; by then each of the 4 threads may have
    // asked and started one more
    assertThat(ran).isBetween(STOP_AFTER, STOP_AFTER + 4);
    int distinct = 0;
    for (int i = 0; i < TASKS; i++) {
      assertThat(runs.get(i)).as("task %d", i).isLessThanOrEqualTo(1);
      distinct += runs.get(i);
    }
    assertThat(distinct).isEqualTo(ran);
  }

  @Test
  void aFailureBeforeTheStopIsThrownRatherThanTheCancellation() {
    assertThatThrownBy(
            () ->
                SharedTasks.run(
                    TASKS,
                    i -> {
                      if (i == 3) {
                        throw new IllegalStateException("task 3");
                      }
                    },
                    null,
                    0,
                    () -> false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("task 3");
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
