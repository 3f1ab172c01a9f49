package io.quarry.ql.exec;

import static io.quarry.ql.exec.DriverTest.context;
import static io.quarry.ql.exec.DriverTest.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a pull-mode {@link Driver} finishes an operator: a blocked one whose input was closed only
 * once it is no longer blocked, and once; a writing step ({@link Driver.Step#writes}) not when the
 * step after it is finished early, but when its input ends, the chain finished only then.
 */
class DriverFinishingTest {
  @Test
  @Timeout(30)
  void aBlockedOperatorWhoseInputClosedIsFinishedOnceAfterItUnblocks() throws Exception {
    DriverTest.NumberSource source = new DriverTest.NumberSource(1, 4); // one page, then over
    Blocking blocking = new Blocking();
    List<Page> answer = new ArrayList<>();
    Thread unblocker =
        new Thread(
            () -> {
              try {
                Thread.sleep(50); // the source is over and closed while the operator is blocked
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              blocking.future.complete(null);
            });
    try (Driver driver =
        new Driver(
            List.of(Driver.Step.uncounted(source), Driver.Step.counted(blocking, 0)),
            answer::add,
            new StageStats(List.of("blocking")),
            context(() -> false))) {
      unblocker.start();
      assertThat(driver.run(TimeUnit.SECONDS.toNanos(20))).isTrue();
      assertThat(source.closed).as("the source closed, its part done").isTrue();
    } finally {
      unblocker.join();
    }
    assertThat(blocking.finishes).isEqualTo(1);
    assertThat(values(answer)).containsExactly(0L, 1L, 2L, 3L);
  }

  @Test
  @Timeout(30)
  void aWritingStepTakesEveryPageAfterTheStepAfterItFinished() {
    DriverTest.NumberSource source = new DriverTest.NumberSource(50, 4);
    long[] written = {0};
    Operator writer =
        new PageTransformOperator() {
          @Override
          protected Page process(Page page) {
            written[0] += page.positionCount();
            return page;
          }
        };
    List<Page> answer = new ArrayList<>();
    try (Driver driver =
        new Driver(
            List.of(
                Driver.Step.uncounted(source),
                Driver.Step.writing(writer),
                Driver.Step.counted(new DriverTest.FirstPageOnly(), 0)),
            answer::add,
            new StageStats(List.of("first")),
            context(() -> false))) {
      assertThat(driver.run(TimeUnit.SECONDS.toNanos(20))).isTrue();
      assertThat(source.pages).as("the source read to its end").isEqualTo(50);
      assertThat(source.closed).isTrue();
    }
    assertThat(written[0]).isEqualTo(200);
    assertThat(values(answer)).containsExactly(0L, 1L, 2L, 3L);
  }

  /**
   * Holds each page until {@link #future} completes (from another thread); a {@code finish} while
   * it is blocked is a broken driver, and fails.
   */
  private static final class Blocking implements Operator {
    final CompletableFuture<Void> future = new CompletableFuture<>();
    private Page held;
    private boolean finishing;
    int finishes;

    @Override
    public CompletionStage<Void> isBlocked() {
      return held == null || future.isDone() ? NOT_BLOCKED : future;
    }

    @Override
    public boolean needsInput() {
      return held == null && !finishing;
    }

    @Override
    public void addInput(Page page) {
      held = page;
    }

    @Override
    public Page getOutput() {
      if (!future.isDone()) {
        throw new IllegalStateException("getOutput while blocked");
      }
      Page out = held;
      held = null;
      return out;
    }

    @Override
    public void finish() {
      if (!future.isDone()) {
        throw new IllegalStateException("finished while blocked");
      }
      finishes++;
      finishing = true;
    }

    @Override
    public boolean isFinished() {
      return finishing && held == null;
    }

    @Override
    public void close() {}
  }
}
