package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Moves pages through one chain of pull {@link Operator}s on one thread, for one slice of a search
 * (or its reduce side): built-in commands' operators and plugin commands' ({@link PluginOperator})
 * alike. Two modes: in pull mode ({@link #run()}, {@link #run(long)}) the first operator is the
 * slice's source (a scan handing a page per {@code getOutput}) and the driver runs until the last
 * operator is finished, or for a time slice; in push mode a source outside pushes its pages in
 * ({@link #add}, then {@link #finish}). Either way the driver loops as ES|QL's {@code Driver} does
 * — for each neighbouring pair, finish the next operator when this one is finished, else move this
 * one's output into the next while the next needs input; when the next is finished early (a {@code
 * head} has its rows) finish this one and drop what it still gives — and hands the last operator's
 * output to the sink. The finished prefix of the chain (up to the last finished operator before the
 * end) is closed at once, so a source before a satisfied {@code head} stops reading and releases
 * what it holds. A push-mode driver yields (returns to the source) when nothing can move, also when
 * an operator is blocked ({@link Operator#isBlocked}); it waits only when the first operator must
 * take a page or the chain must finish while one is blocked, and then checks every {@value
 * Operator#CANCEL_CHECK_MILLIS} ms whether the search was cancelled (pull mode also checks on every
 * pass).
 *
 * <p>Each step counts into the search's {@link StageStats}: the rows its operator took and the time
 * of every call into it ({@code addInput}, {@code getOutput}, {@code finish}) — its own time, as
 * the pull protocol never calls one operator from inside another.
 */
public final class Driver implements AutoCloseable {
  /**
   * One operator of the chain, counted as stage {@code stage} of the search's stats ({@code -1}:
   * not counted); {@code countsRows} false for a helper operator that shares a command's stage
   * (re-paging before it, a {@code dedup}'s {@code sortby} after it) and counts its time only.
   */
  public record Step(Operator operator, int stage, boolean countsRows) {
    public Step {
      requireNonNull(operator, "operator is null");
    }

    /** A command's operator, its rows and time counted as stage {@code stage}. */
    public static Step counted(Operator operator, int stage) {
      return new Step(operator, stage, true);
    }

    /** An operator counted nowhere (re-paging the answer, marking columns). */
    public static Step uncounted(Operator operator) {
      return new Step(operator, -1, false);
    }
  }

  /** How many idle loops a finishing chain allows an operator that is not blocked. */
  private static final int IDLE_LIMIT = 1_000_000;

  private final Operator[] operators;
  private final Step[] steps;
  private final boolean[] finishCalled;
  private final Consumer<Page> sink;
  private final StageStats stats;
  private final OperatorContext context;
  private int firstOpen; // the operators before it are finished and closed (the finished prefix)
  private boolean closed;

  /**
   * A driver of {@code steps}, in order, handing the last one's output to {@code sink}; {@code
   * context} tells whether the search was cancelled while an operator is blocked.
   */
  public Driver(List<Step> steps, Consumer<Page> sink, StageStats stats, OperatorContext context) {
    this.steps = steps.toArray(Step[]::new);
    this.operators = new Operator[this.steps.length];
    for (int i = 0; i < operators.length; i++) {
      operators[i] = this.steps[i].operator();
    }
    this.finishCalled = new boolean[operators.length];
    this.sink = requireNonNull(sink, "sink is null");
    this.stats = stats;
    this.context = requireNonNull(context, "context is null");
  }

  /**
   * Hands the source's next page to the first operator (an empty page goes nowhere), waiting while
   * it is blocked or full, then moves pages on until nothing moves. A first operator that is
   * already finished drops the page; so does every operator once the one after it is finished (it
   * is finished early, and the ones before it in turn).
   */
  public void add(Page page) {
    if (operators.length == 0) {
      sink.accept(page);
      return;
    }
    if (page.positionCount() == 0 || firstOpen > 0) {
      if (firstOpen == 0) {
        dropped(0, page);
      }
      return; // a closed first operator took its last page
    }
    int idle = 0;
    while (true) {
      if (firstOpen > 0) {
        return; // the chain after it finished (a head has its rows): the page goes nowhere
      }
      if (blocked(0) == null) { // nothing else is asked of a blocked operator
        if (operators[0].isFinished()) {
          dropped(0, page);
          return;
        }
        if (operators[0].needsInput()) {
          break;
        }
      }
      if (moveOnce()) {
        idle = 0;
      } else if (!awaitBlocked()) {
        if (++idle > IDLE_LIMIT) {
          throw stuck(0, "operator neither needs input nor has output, and is not blocked");
        }
        Thread.onSpinWait();
      }
    }
    addInput(0, page);
    while (moveOnce()) {
      // until nothing moves: what an operator cannot take now waits in the one before it
    }
  }

  /**
   * The source is over: finishes the first operator, then each next one when the one before it is
   * finished, moving pages on until the last operator is finished.
   */
  public void finish() {
    if (operators.length == 0) {
      return;
    }
    if (firstOpen == 0 && !finishCalled[0]) {
      awaitUnblocked(0);
      finish(0);
    }
    int idle = 0;
    while (!finished()) {
      if (moveOnce()) {
        idle = 0;
      } else if (!awaitBlocked()) {
        if (++idle > IDLE_LIMIT) {
          throw stuck(
              firstUnfinished(),
              "operator never finishes after finish() (an operator that waits returns a future"
                  + " from isBlocked)");
        }
        Thread.onSpinWait();
      }
    }
  }

  /**
   * Pull mode, for a chain whose first operator is a source (it needs no input: {@code getOutput}
   * hands its next page, as ES|QL's {@code SourceOperator} and the batch scan's {@code
   * ScanSourceOperator} do): moves pages until the last operator is finished, waiting where one is
   * blocked and checking the search's cancellation on every pass.
   */
  public void run() {
    while (!run(Long.MAX_VALUE)) {
      // no time limit: returns once finished
    }
  }

  /**
   * As {@link #run()}, for at most about {@code maxNanos} (a time slice: a thread that runs several
   * drivers takes turns); true once the last operator is finished, false when the slice was used up
   * first (call again to go on). A page is never split across the limit: the pass that crosses it
   * completes. A source that is finished finishes the operator after it, and so on down the chain;
   * an operator that is finished early (a satisfied {@code head}) finishes the ones before it, the
   * source among them, and the finished prefix is closed at once, so a scan stops reading and
   * releases what it holds.
   */
  public boolean run(long maxNanos) {
    if (operators.length == 0) {
      throw new IllegalStateException("a driver in pull mode needs a source operator");
    }
    long started = System.nanoTime();
    int idle = 0;
    while (!finished()) {
      context.checkCancelled();
      if (moveOnce()) {
        idle = 0;
      } else if (!awaitBlocked()) {
        if (++idle > IDLE_LIMIT) {
          throw stuck(
              firstUnfinished(), "operator neither has output nor is finished, and is not blocked");
        }
        Thread.onSpinWait();
      }
      if (System.nanoTime() - started >= maxNanos) {
        return finished();
      }
    }
    return true;
  }

  /** Whether the last operator is finished (and not blocked): nothing more comes out. */
  private boolean finished() {
    int last = operators.length - 1;
    return blocked(last) == null && operators[last].isFinished();
  }

  /**
   * Closes the finished prefix of the chain: every operator up to the last finished one before the
   * end (nothing it held reaches the rest), as ES|QL's driver drops its finished operators; the
   * first still open is finished, its input being over.
   */
  private void closeFinishedPrefix() {
    int last = operators.length - 1;
    for (int i = last - 1; i >= firstOpen; i--) {
      if (blocked(i) == null && operators[i].isFinished()) {
        RuntimeException failure = null;
        for (int j = firstOpen; j <= i; j++) {
          try {
            operators[j].close();
          } catch (RuntimeException e) {
            if (failure == null) {
              failure = e;
            } else {
              failure.addSuppressed(e);
            }
          }
        }
        firstOpen = i + 1;
        if (!finishCalled[firstOpen]) {
          finish(firstOpen);
        }
        if (failure != null) {
          throw failure;
        }
        return;
      }
    }
  }

  /**
   * Closes the operators of {@code built}, the steps made so far when making the next one failed
   * with {@code failure} (a lookup's index over the memory limit): what they reserved is released,
   * as no driver will close them. The failure to throw, a failure to close added to it.
   */
  static RuntimeException closeBuilt(List<Step> built, RuntimeException failure) {
    for (Step step : built) {
      try {
        step.operator().close();
      } catch (RuntimeException e) {
        failure.addSuppressed(e);
      }
    }
    return failure;
  }

  /** The operators, in order (for the operator test harness, which drives them one by one). */
  List<Operator> operators() {
    return List.of(operators);
  }

  /** One pass over the chain; whether anything moved. */
  private boolean moveOnce() {
    boolean moved = false;
    int last = operators.length - 1;
    for (int i = firstOpen; i <= last; i++) {
      if (blocked(i) != null) {
        continue;
      }
      if (i == last) {
        Page out = getOutput(i);
        if (out != null) {
          sink.accept(out);
          moved = true;
        }
        continue;
      }
      int next = i + 1;
      if (blocked(next) != null) {
        continue;
      }
      if (operators[next].isFinished()) {
        // the rest of the chain takes nothing more (a head-like command has its rows): this
        // operator finishes early and what it still gives is dropped; the ones before it follow
        if (!finishCalled[i]) {
          finish(i);
          moved = true;
        }
        if (!operators[i].isFinished()) {
          Page out = getOutput(i);
          if (out != null) {
            dropped(next, out);
            moved = true;
          }
        }
        continue;
      }
      if (operators[i].isFinished()) {
        if (!finishCalled[next]) {
          finish(next);
          moved = true;
        }
      } else if (operators[next].needsInput()) {
        Page out = getOutput(i);
        if (out != null) {
          if (out.positionCount() > 0) {
            addInput(next, out);
          } else {
            dropped(next, out);
          }
          moved = true;
        }
      }
    }
    if (moved) {
      closeFinishedPrefix();
    }
    return moved;
  }

  private void addInput(int at, Page page) {
    long started = System.nanoTime();
    operators[at].addInput(page);
    count(at, page.positionCount(), System.nanoTime() - started);
  }

  private Page getOutput(int at) {
    long started = System.nanoTime();
    Page out = operators[at].getOutput();
    count(at, 0, System.nanoTime() - started);
    return out;
  }

  private void finish(int at) {
    finishCalled[at] = true;
    long started = System.nanoTime();
    operators[at].finish();
    count(at, 0, System.nanoTime() - started);
  }

  private void count(int at, long rows, long nanos) {
    Step step = steps[at];
    if (stats != null && step.stage() >= 0) {
      stats.counted(step.stage(), step.countsRows() ? rows : 0, nanos);
    }
  }

  /**
   * A page operator {@code at} does not take (it is finished, or the page is empty): where the page
   * was reserved for that operator already (a transforming plugin's map side states), its blocks
   * are released.
   */
  private void dropped(int at, Page page) {
    if (operators[at] instanceof PluginOperator plugin) {
      plugin.dropped(page);
    }
  }

  /** The operator's blocked future when it is not done yet, else null. */
  private CompletableFuture<Void> blocked(int at) {
    CompletionStage<Void> blocked = operators[at].isBlocked();
    if (blocked == Operator.NOT_BLOCKED) {
      return null;
    }
    if (blocked == null) {
      throw stuck(at, "isBlocked returned null (return Operator.NOT_BLOCKED)");
    }
    CompletableFuture<Void> future = blocked.toCompletableFuture();
    if (!future.isDone()) {
      return future;
    }
    waitFor(at, future); // done: rethrows how it failed, if it did
    return null;
  }

  /** Waits for the first blocked operator; false when none is. */
  private boolean awaitBlocked() {
    for (int i = firstOpen; i < operators.length; i++) {
      CompletableFuture<Void> future = blocked(i);
      if (future != null) {
        waitFor(i, future);
        return true;
      }
    }
    return false;
  }

  private void awaitUnblocked(int at) {
    CompletableFuture<Void> future = blocked(at);
    if (future != null) {
      waitFor(at, future);
    }
  }

  private void waitFor(int at, CompletableFuture<Void> future) {
    while (true) {
      context.checkCancelled();
      try {
        future.get(Operator.CANCEL_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException stillBlocked) {
        // check for cancellation again
      } catch (ExecutionException e) {
        throw operators[at] instanceof RunsPlugin plugin
            ? plugin.failure(e.getCause())
            : new IllegalStateException("an operator's isBlocked future failed", e.getCause());
      } catch (CancellationException e) {
        throw stuck(at, "its isBlocked future was cancelled");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CancellationException("interrupted waiting for a blocked operator");
      }
    }
  }

  private int firstUnfinished() {
    for (int i = firstOpen; i < operators.length; i++) {
      if (!operators[i].isFinished()) {
        return i;
      }
    }
    return operators.length - 1;
  }

  /** A broken operator: a plugin's (bare or wrapped: {@link RunsPlugin}) is named. */
  private RuntimeException stuck(int at, String problem) {
    IllegalStateException cause = new IllegalStateException(problem);
    return operators[at] instanceof RunsPlugin plugin ? plugin.failure(cause) : cause;
  }

  /** Closes every operator once, the first failure thrown after all are closed. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    RuntimeException failure = null;
    for (int i = firstOpen; i < operators.length; i++) {
      try {
        operators[i].close();
      } catch (RuntimeException e) {
        if (failure == null) {
          failure = e;
        } else {
          failure.addSuppressed(e);
        }
      }
    }
    if (failure != null) {
      throw failure;
    }
  }
}
