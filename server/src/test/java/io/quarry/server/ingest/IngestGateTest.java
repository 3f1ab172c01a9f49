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

  private static <T> T call(IngestGate gate, long bytes, IngestGate.Work<T> work) {
    try {
      return gate.run(bytes, work);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
