package io.quarry.ql.exec;

import static io.quarry.ql.exec.DriverTest.context;
import static io.quarry.ql.exec.DriverTest.values;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
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
    DriverTest.Waiting blocking = new DriverTest.Waiting();
    List<Page> answer = new ArrayList<>();
    java.util.concurrent.atomic.AtomicBoolean closedWhileBlocked =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread unblocker =
        new Thread(
            () -> {
              try {
                Thread.sleep(50); // the source is over and closed while the operator is blocked
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              closedWhileBlocked.set(source.closed);
              blocking.blocked.complete(null);
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
    assertThat(closedWhileBlocked).as("its input closed while it was blocked").isTrue();
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
}
