package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class IngestGateTest {
  /**
   * An index that refuses a batch because its compaction lags ({@link
   * io.quarry.codecs.store.IndexBusyException}) answers busy like a full queue (503, Retry-After),
   * and frees its pipeline.
   */
  @Test
  void aBatchAnIndexRefusedAsBusyIsAnsweredBusy() throws Exception {
    IngestGate gate = new IngestGate(1, 100);
    assertThatThrownBy(
            () ->
                gate.run(
                    10,
                    () -> {
                      throw new io.quarry.codecs.store.IndexBusyException("index main: lags");
                    }))
        .isInstanceOf(IngestGate.Full.class)
        .hasMessage("index main: lags");
    assertThat(gate.busyPipelines()).isZero();
    assertThat(gate.run(10, () -> "next")).isEqualTo("next");
  }

  @Test
  void oneBatchRunsPerPipelineAndTheQueueRefusesWhatDoesNotFit() throws Exception {
    IngestGate gate = new IngestGate(1, 100);
    ExecutorService threads = Executors.newCachedThreadPool();
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    try {
      CompletableFuture<String> first =
          CompletableFuture.supplyAsync(
              () ->
                  call(
                      gate,
                      1000,
                      () -> {
                        running.countDown();
                        release.await();
                        return "first";
                      }),
              threads);
      assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(gate.busyPipelines()).isEqualTo(1);
      assertThat(gate.saturated()).isFalse(); // nothing waits yet

      // a batch larger than the whole queue is still let in when the queue is empty
      CompletableFuture<String> second =
          CompletableFuture.supplyAsync(() -> call(gate, 500, () -> "second"), threads);
      while (gate.queuedBytes() == 0) {
        Thread.onSpinWait();
      }
      assertThat(gate.saturated()).isTrue();
      assertThatThrownBy(() -> gate.run(1, () -> "third"))
          .isInstanceOf(IngestGate.Full.class)
          .hasMessageContaining("1 batches (500 bytes) wait for 1 busy pipelines");

      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
      assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("second");
      assertThat(gate.queuedBytes()).isZero();
      assertThat(gate.busyPipelines()).isZero();
      assertThat(gate.run(1, () -> "after")).isEqualTo("after");
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  void aFailingBatchFreesItsPipeline() throws Exception {
    IngestGate gate = new IngestGate(1, 10);
    assertThatThrownBy(
            () ->
                gate.run(
                    5,
                    () -> {
                      throw new IllegalStateException("boom");
                    }))
        .hasMessage("boom");
    assertThat(gate.busyPipelines()).isZero();
    assertThat(gate.run(5, () -> 1)).isEqualTo(1);
  }

  /**
   * A batch that hands its pipeline on ({@code leave}: indexed, it only waits for the log's fsync)
   * lets the next batch run on it while it still waits; leaving twice, and ending after leaving,
   * gives the pipeline back once.
   */
  @Test
  void aBatchThatLeftItsPipelineLetsTheNextRunWhileItStillWaits() throws Exception {
    IngestGate gate = new IngestGate(1, 100);
    ExecutorService threads = Executors.newCachedThreadPool();
    CountDownLatch left = new CountDownLatch(1);
    CountDownLatch durable = new CountDownLatch(1);
    try {
      CompletableFuture<String> first =
          CompletableFuture.supplyAsync(
              () ->
                  leaving(
                      gate,
                      10,
                      leave -> {
                        leave.run();
                        leave.run();
                        left.countDown();
                        durable.await(); // the fsync wait, off the pipeline
                        return "first";
                      }),
              threads);
      assertThat(left.await(10, TimeUnit.SECONDS)).isTrue();
      assertThat(gate.busyPipelines()).isZero();
      // the one pipeline takes the next batch while the first still waits
      assertThat(
              CompletableFuture.supplyAsync(() -> call(gate, 10, () -> "second"), threads)
                  .get(10, TimeUnit.SECONDS))
          .isEqualTo("second");
      assertThat(first).isNotDone();
      durable.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
      assertThat(gate.busyPipelines()).isZero(); // released once, not once per leave and at the end

      // still one pipeline: a batch holding it keeps the next one queued
      CountDownLatch running = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<String> holding =
          CompletableFuture.supplyAsync(
              () ->
                  call(
                      gate,
                      10,
                      () -> {
                        running.countDown();
                        release.await();
                        return "holding";
                      }),
              threads);
      assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
      CompletableFuture<String> queued =
          CompletableFuture.supplyAsync(() -> call(gate, 10, () -> "queued"), threads);
      while (gate.queuedBytes() == 0) {
        Thread.onSpinWait();
      }
      assertThat(queued).isNotDone();
      release.countDown();
      assertThat(holding.get(10, TimeUnit.SECONDS)).isEqualTo("holding");
      assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo("queued");
      assertThat(gate.busyPipelines()).isZero();
    } finally {
      threads.shutdownNow();
    }
  }

  private static <T> T leaving(IngestGate gate, long bytes, IngestGate.LeavingWork<T> work) {
    try {
      return gate.run(bytes, work);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static <T> T call(IngestGate gate, long bytes, IngestGate.Work<T> work) {
    try {
      return gate.run(bytes, work);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
