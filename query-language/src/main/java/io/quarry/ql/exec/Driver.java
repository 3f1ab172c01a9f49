package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Page;
import java.util.List;
import java.util.function.Consumer;

/**
 * Moves pages through one chain of pull {@link Operator}s on one thread, for one slice of a search
 * (or its reduce side): built-in commands' operators and plugin commands' ({@link PluginOperator})
 * alike. The driver pulls ({@link #run()}, {@link #run(long)}): the first operator is the slice's
 * source (a scan handing a page per {@code getOutput}, a {@link PagesSource}) and the driver runs
 * until the last operator is finished, or for a time slice (nothing outside the chain pushes pages
 * in). It loops as ES|QL's {@code Driver} does — for each neighbouring pair, finish the next
 * operator when this one is finished, else move this one's output into the next while the next
 * needs input; when the next is finished early (a {@code head} has its rows) finish this one and
 * drop what it still gives, unless it writes ({@link Step#writes}: it goes on taking, its output
 * dropped) — and hands the last operator's output to the sink. The finished prefix of the chain (up
 * to the last finished operator before the end, and never past an unfinished writer) is closed at
 * once, so a source before a satisfied {@code head} stops reading and releases what it holds. Where
 * nothing can move while an operator is blocked ({@link Operator#isBlocked}) it waits, checking
 * every {@value Operator#CANCEL_CHECK_MILLIS} ms whether the search was cancelled (it also checks
 * on every pass).
 *
 * <p>This class owns the entry points; the loop itself (a pass over the chain, the waits on blocked
 * operators, the stage timing) is {@link DriverLoop}.
 *
 * <p>Each step counts into the search's {@link StageStats}: the rows its operator took and the time
 * of every call into it ({@code addInput}, {@code getOutput}, {@code finish}) — its own time, as
 * the pull protocol never calls one operator from inside another.
 */
public final class Driver implements AutoCloseable {
  /**
   * One operator of the chain, counted as stage {@code stage} of the search's stats ({@code -1}:
   * not counted); {@code countsRows} false for a helper operator that shares a command's stage
   * (re-paging before it, a {@code dedup}'s {@code sortby} after it) and counts its time only;
   * {@code writes} true for an operator that writes every row it takes (an {@code outputlookup}'s
   * table): it is never finished early, and the chain is not finished while it is not (its output
   * is dropped once the operator after it is finished).
   */
  public record Step(Operator operator, int stage, boolean countsRows, boolean writes) {
    public Step {
      requireNonNull(operator, "operator is null");
    }

    /** A step that writes nothing. */
    public Step(Operator operator, int stage, boolean countsRows) {
      this(operator, stage, countsRows, false);
    }

    /** A command's operator, its rows and time counted as stage {@code stage}. */
    public static Step counted(Operator operator, int stage) {
      return new Step(operator, stage, true);
    }

    /** An operator counted nowhere (re-paging the answer, marking columns). */
    public static Step uncounted(Operator operator) {
      return new Step(operator, -1, false);
    }

    /** An operator counted nowhere that writes every row it takes (a table). */
    public static Step writing(Operator operator) {
      return new Step(operator, -1, false, true);
    }
  }

  private final DriverLoop loop;
  private boolean closed;

  /**
   * A driver of {@code steps}, in order, handing the last one's output to {@code sink}; {@code
   * context} tells whether the search was cancelled while an operator is blocked.
   */
  public Driver(List<Step> steps, Consumer<Page> sink, StageStats stats, OperatorContext context) {
    this.loop = new DriverLoop(steps, sink, stats, context);
  }

  /**
   * Runs a chain whose first operator is a source (it needs no input: {@code getOutput} hands its
   * next page, as ES|QL's {@code SourceOperator} and the batch scan's {@code ScanSourceOperator}
   * do): moves pages until the last operator is finished, waiting where one is blocked and checking
   * the search's cancellation on every pass.
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
    if (loop.empty()) {
      throw new IllegalStateException("a driver needs a source operator");
    }
    long started = System.nanoTime();
    int idle = 0;
    while (!loop.finished()) {
      loop.checkCancelled();
      idle =
          loop.step(
              idle,
              loop::firstUnfinished,
              "operator neither has output nor is finished, and is not blocked");
      if (System.nanoTime() - started >= maxNanos) {
        return loop.finished();
      }
    }
    return true;
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
    return loop.operators();
  }

  /** Closes every operator once, the first failure thrown after all are closed. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    loop.closeOpen();
  }
}
