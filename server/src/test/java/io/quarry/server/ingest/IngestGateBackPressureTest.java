package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Reviewer b42 against lane ingest42: a batch that hands its pipeline on ({@code leave}) while it
 * waits for the log's fsync still holds its body and its answer; the gate must still bound what the
 * server holds. Before ingest42, with one pipeline and a queue of 100 bytes, at most one batch was
 * indexed-and-waiting-for-fsync and one queued: the third got {@link IngestGate.Full} (503 +
 * Retry-After). With {@code leave}, a stalled disk (fsync that does not return) lets every batch
 * in: the server takes bodies without bound and a shipper never hears "busy".
 */
class IngestGateBackPressureTest {

  @Test
  void batchesWaitingForAStalledFsyncStillFillTheQueue() throws Exception {
    IngestGate gate = new IngestGate(1, 100);
    ExecutorService threads = Executors.newCachedThreadPool();
    CountDownLatch fsync = new CountDownLatch(1); // the disk stalls until released
    AtomicInteger waitingForFsync = new AtomicInteger();
    List<CompletableFuture<String>> batches = new ArrayList<>();
    int refused = 0;
    try {
      for (int i = 0; i < 50; i++) {
        int before = waitingForFsync.get();
        CompletableFuture<String> batch =
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return gate.run(
                        60,
                        leave -> {
                          leave.run(); // indexed: only the fsync is left
                          waitingForFsync.incrementAndGet();
                          fsync.await();
                          return "stored";
                        });
                  } catch (IngestGate.Full busy) {
                    return "busy";
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                },
                threads);
        batches.add(batch);
        // each batch either waits for the fsync or was answered busy before the next is sent
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (waitingForFsync.get() == before
            && !batch.isDone()
            && gate.queuedBytes() == 0
            && System.nanoTime() < deadline) {
          Thread.onSpinWait();
        }
        if (batch.isDone() && "busy".equals(batch.getNow(null))) {
          refused++;
        }
      }
      assertThat(refused)
          .as(
              "batches answered busy while %d bodies wait for a stalled fsync (1 pipeline, a"
                  + " 100-byte queue, 60-byte batches)",
              waitingForFsync.get())
          .isPositive();
    } finally {
      fsync.countDown();
      for (CompletableFuture<String> batch : batches) {
        batch.get(10, TimeUnit.SECONDS);
      }
      threads.shutdownNow();
    }
  }
}
