package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel scan whose slice fails with a runtime exception throws it only once the slices still
 * running have ended (their visitors closed): the caller gives back what the visitors handed over
 * right after the throw, and nothing may arrive later.
 */
class ParallelScanFailureTest {
  @TempDir Path dataDirectory;

  @Test
  void aFailedSliceIsThrownOnlyAfterTheRunningOnesEnded() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try (EventStore store = EventStore.open(dataDirectory, List.of("main"))) {
      for (int segment = 0; segment < 2; segment++) { // two segments: two slices
        store.write(
            "main",
            List.of(new Event(segment * 1_000L, "event " + segment, "h", "s", "t", Map.of())));
        store.index("main").commit();
      }
      CountDownLatch bothRunning = new CountDownLatch(2);
      AtomicInteger made = new AtomicInteger();
      AtomicBoolean slowClosed = new AtomicBoolean();
      assertThatThrownBy(
              () ->
                  Scans.visitEach(
                      store,
                      "main",
                      Long.MIN_VALUE,
                      Long.MAX_VALUE,
                      () -> {
                        boolean failing = made.getAndIncrement() == 0;
                        return new EventVisitor() {
                          @Override
                          public boolean visit(StoredEvent event) {
                            bothRunning.countDown();
                            await(bothRunning);
                            if (failing) {
                              throw new IllegalStateException("slice failed");
                            }
                            sleep(); // still running when the other slice's failure arrives
                            return true;
                          }

                          @Override
                          public void close() {
                            if (!failing) {
                              slowClosed.set(true);
                            }
                          }
                        };
                      },
                      pool))
          .isInstanceOf(IllegalStateException.class);
      assertThat(made.get()).isEqualTo(2);
      assertThat(slowClosed).as("the running slice ended before the scan threw").isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(300);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
