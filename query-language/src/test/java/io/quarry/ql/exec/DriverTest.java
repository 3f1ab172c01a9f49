package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Driver} over the engine's own operators: pages in order through every operator, each
 * operator's rows and own time counted as its stage, the source given back its thread while an
 * operator is blocked, and a blocked chain left when the search is cancelled.
 */
class DriverTest {
  private static final long SPIN_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  @Test
  void movesEveryPageThroughTheOperatorsInOrder() {
    List<Page> answer = new ArrayList<>();
    PageRun.drive(
        List.of(numbers(0, 10), numbers(10, 4)),
        List.of(
            Driver.Step.counted(evenOnly(), 0),
            Driver.Step.counted(new RowPaging(3), 1)), // several pages out of one, and at the end
        answer::add,
        new StageStats(List.of("where", "paging")),
        context(() -> false));
    assertThat(answer).extracting(Page::positionCount).containsExactly(3, 3, 1);
    assertThat(values(answer)).containsExactly(0L, 2L, 4L, 6L, 8L, 10L, 12L);
  }

  @Test
  @Timeout(30)
  void anOperatorFinishedEarlyFinishesTheOnesBeforeIt() {
    // a head-like operator finished after its first page: the filter before it is finished too,
    // its pending output dropped, and the source's later pages are not pulled — no spinning, no
    // error
    FirstPageOnly first = new FirstPageOnly();
    List<Page> answer = new ArrayList<>();
    PageRun.drive(
        List.of(numbers(0, 4), numbers(4, 4), numbers(8, 4)),
        List.of(Driver.Step.counted(evenOnly(), 0), Driver.Step.counted(first, 1)),
        answer::add,
        new StageStats(List.of("where", "first")),
        context(() -> false));
    assertThat(values(answer)).containsExactly(0L, 2L);
  }

  /** Passes its first page on and is then finished, whether its input is over or not. */
  static final class FirstPageOnly implements Operator {
    private Page held;
    private boolean passed;

    @Override
    public boolean needsInput() {
      return !passed && held == null;
    }

    @Override
    public void addInput(Page page) {
      held = page;
    }

    @Override
    public void finish() {
      passed = true;
    }

    @Override
    public boolean isFinished() {
      return passed && held == null;
    }

    @Override
    public Page getOutput() {
      Page out = held;
      if (out != null) {
        held = null;
        passed = true;
      }
      return out;
    }
  }

  @Test
  void countsEachOperatorsRowsAndOwnTimeAsItsStage() {
    StageStats stats = new StageStats(List.of("where", "slow"));
    List<Page> input = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      input.add(numbers(i * 10, 10));
    }
    PageRun.drive(
        input,
        List.of(Driver.Step.counted(evenOnly(), 0), Driver.Step.counted(new Spinning(), 1)),
        page -> {},
        stats,
        context(() -> false));
    List<StageStats.Stage> stages = stats.stages();
    assertThat(stages.get(0).rowsIn()).isEqualTo(40);
    assertThat(stages.get(0).rowsOut()).isEqualTo(20);
    assertThat(stages.get(1).rowsIn()).isEqualTo(20);
    assertThat(stages.get(1).time().toNanos()).isGreaterThanOrEqualTo(4 * SPIN_NANOS);
    // the filter's own time: not the time of the slow operator its pages went on to
    assertThat(stages.get(0).time().toNanos()).isLessThan(SPIN_NANOS);
  }

  @Test
  @Timeout(30)
  void waitsWhileAnOperatorIsBlockedThenGoesOn() {
    Waiting waiting = new Waiting();
    List<Page> answer = new ArrayList<>();
    // the operator takes the page, then waits on something outside that completes a little later
    CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS)
        .execute(() -> waiting.blocked.complete(null));
    PageRun.drive(
        List.of(numbers(0, 4)),
        List.of(Driver.Step.counted(waiting, 0), Driver.Step.counted(evenOnly(), 1)),
        answer::add,
        new StageStats(List.of("waiting", "where")),
        context(() -> false));
    assertThat(values(answer)).containsExactly(0L, 2L);
  }

  @Test
  void aCancelledSearchLeavesABlockedChain() {
    AtomicBoolean cancelled = new AtomicBoolean();
    Waiting waiting = new Waiting();
    Driver driver =
        PageRun.driver(
            List.of(numbers(0, 4)),
            List.of(Driver.Step.counted(waiting, 0)),
            page -> {},
            new StageStats(List.of("waiting")),
            context(cancelled::get));
    CompletableFuture.delayedExecutor(50, TimeUnit.MILLISECONDS).execute(() -> cancelled.set(true));
    assertThatThrownBy(driver::run).isInstanceOf(CancellationException.class);
    driver.close();
    assertThat(waiting.closed).isTrue();
  }

  @Test
  @Timeout(30)
  void pullModeRunsTheSourceToItsEndAndClosesItThen() {
    NumberSource source = new NumberSource(3, 10);
    List<Page> answer = new ArrayList<>();
    StageStats stats = new StageStats(List.of("where", "paging"));
    try (Driver driver =
        new Driver(
            List.of(
                Driver.Step.uncounted(source),
                Driver.Step.counted(evenOnly(), 0),
                Driver.Step.counted(new RowPaging(4), 1)),
            answer::add,
            stats,
            context(() -> false))) {
      driver.run();
      // the source was finished by itself and closed once the operator after it took its end
      assertThat(source.closed).isTrue();
      assertThat(source.finishCalled).isFalse();
    }
    assertThat(values(answer))
        .containsExactly(0L, 2L, 4L, 6L, 8L, 10L, 12L, 14L, 16L, 18L, 20L, 22L, 24L, 26L, 28L);
    assertThat(answer).extracting(Page::positionCount).containsExactly(4, 4, 4, 3);
    assertThat(stats.stages().get(0).rowsIn()).isEqualTo(30); // the source itself: no stage
    assertThat(stats.stages().get(1).rowsIn()).isEqualTo(15);
  }

  @Test
  @Timeout(30)
  void aFinishedHeadClosesThePrefixAndTheSourceStopsReading() {
    NumberSource source = new NumberSource(Integer.MAX_VALUE, 4); // never ends by itself
    Operator filter = evenOnly();
    List<Page> answer = new ArrayList<>();
    try (Driver driver =
        new Driver(
            List.of(
                Driver.Step.uncounted(source),
                Driver.Step.counted(filter, 0),
                Driver.Step.counted(new FirstPageOnly(), 1),
                Driver.Step.counted(new RowPaging(5), 2)), // re-pages what comes after the head
            answer::add,
            new StageStats(List.of("where", "first", "paging")),
            context(() -> false))) {
      assertThat(driver.run(TimeUnit.SECONDS.toNanos(20))).isTrue();
      // the head, the filter and the source were closed before the driver is
      assertThat(source.closed).isTrue();
      assertThat(source.pages).isLessThanOrEqualTo(2); // the one that went out, one in flight
    }
    assertThat(values(answer)).containsExactly(0L, 2L);
  }

  @Test
  @Timeout(30)
  void pullModeChecksCancellationOnEveryPass() {
    AtomicBoolean cancelled = new AtomicBoolean();
    NumberSource source = new NumberSource(Integer.MAX_VALUE, 4);
    source.afterPages = 5;
    source.then = () -> cancelled.set(true);
    Driver driver =
        new Driver(
            List.of(Driver.Step.uncounted(source), Driver.Step.counted(evenOnly(), 0)),
            page -> {},
            new StageStats(List.of("where")),
            context(cancelled::get));
    assertThatThrownBy(driver::run).isInstanceOf(CancellationException.class);
    assertThat(source.pages).isBetween(5, 6);
    driver.close();
    assertThat(source.closed).isTrue();
  }

  @Test
  @Timeout(30)
  void aTimeSliceReturnsBeforeTheChainIsFinishedAndTheNextGoesOn() {
    NumberSource source = new NumberSource(Integer.MAX_VALUE, 2);
    List<Page> answer = new ArrayList<>();
    try (Driver driver =
        new Driver(
            List.of(Driver.Step.uncounted(source), Driver.Step.counted(new Spinning(), 0)),
            answer::add,
            new StageStats(List.of("slow")),
            context(() -> false))) {
      long started = System.nanoTime();
      assertThat(driver.run(TimeUnit.MILLISECONDS.toNanos(20))).isFalse();
      assertThat(System.nanoTime() - started).isLessThan(TimeUnit.SECONDS.toNanos(5));
      int first = answer.size();
      assertThat(first).isPositive();
      assertThat(driver.run(TimeUnit.MILLISECONDS.toNanos(20))).isFalse();
      assertThat(answer.size()).isGreaterThan(first);
      source.limit = source.pages + 1; // the source ends: the chain finishes
      assertThat(driver.run(TimeUnit.SECONDS.toNanos(20))).isTrue();
    }
    assertThat(values(answer)).hasSize(2 * answer.size());
    assertThat(values(answer).get(values(answer).size() - 1))
        .isEqualTo((long) 2 * answer.size() - 1);
  }

  /** A source operator: {@code limit} pages of {@code size} numbers, counting up from 0. */
  static final class NumberSource implements Operator {
    private final int size;
    volatile int limit;
    int pages;
    int afterPages = -1; // run then after this many pages
    Runnable then;
    boolean finishCalled;
    volatile boolean closed; // read by a test's other thread too

    NumberSource(int limit, int size) {
      this.limit = limit;
      this.size = size;
    }

    @Override
    public boolean needsInput() {
      return false;
    }

    @Override
    public void addInput(Page page) {
      throw new UnsupportedOperationException("a source takes no input");
    }

    @Override
    public void finish() {
      finishCalled = true;
    }

    @Override
    public boolean isFinished() {
      return finishCalled || pages >= limit;
    }

    @Override
    public Page getOutput() {
      if (closed) {
        throw new IllegalStateException("read after close");
      }
      if (isFinished()) {
        return null;
      }
      Page page = numbers((long) pages * size, size);
      if (++pages == afterPages) {
        then.run();
      }
      return page;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  private static PageChain.FilterOperator evenOnly() {
    return new PageChain.FilterOperator(
        (page, kept) -> {
          LongBlock n = (LongBlock) page.block("n");
          int count = 0;
          for (int p = 0; p < page.positionCount(); p++) {
            if (n.getLongValue(p) % 2 == 0) {
              kept[count++] = p;
            }
          }
          return count;
        });
  }

  static Page numbers(long from, int count) {
    List<Map<String, List<Object>>> rows = new ArrayList<>();
    for (long n = from; n < from + count; n++) {
      rows.add(Map.of("n", List.of(n)));
    }
    return TestPages.page(rows);
  }

  static List<Object> values(List<Page> pages) {
    return TestPages.rows(pages).stream().map(row -> row.get("n")).toList();
  }

  static OperatorContext context(java.util.function.BooleanSupplier cancelled) {
    return new SearchResources(new MemoryAccount("test", Long.MAX_VALUE), cancelled, w -> {})
        .context(Instant.EPOCH, ZoneOffset.UTC);
  }

  /** Each page handed on after a few milliseconds' work. */
  private static final class Spinning extends PageTransformOperator {
    @Override
    protected Page process(Page page) {
      long until = System.nanoTime() + SPIN_NANOS;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      return page;
    }
  }

  /**
   * Takes a page, then waits on something outside until {@link #blocked} completes; a {@code
   * finish} while it is blocked is a broken driver, and fails.
   */
  static final class Waiting implements Operator {
    final CompletableFuture<Void> blocked = new CompletableFuture<>();
    private Page held;
    private boolean finishing;
    int finishes;
    boolean closed;

    @Override
    public CompletionStage<Void> isBlocked() {
      return held == null || blocked.isDone() ? NOT_BLOCKED : blocked;
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
      if (!blocked.isDone()) {
        return null;
      }
      Page out = held;
      held = null;
      return out;
    }

    @Override
    public void finish() {
      if (held != null && !blocked.isDone()) {
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
    public void close() {
      closed = true;
    }
  }
}
