package io.quarry.ql.exec;

import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.PluginCommand;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Calls into plugin commands' operators for the page engine's plugin stages ({@link
 * PluginOverlayStage}, {@link PluginAggregation}, the generators): a {@link Driver} moves pages
 * through one operator with the pull protocol and every call into plugin code is wrapped, so a
 * throwing plugin fails its search with a {@link PluginFailureException} naming it.
 *
 * <p>A streaming or centralized command keeps the positions it is given: each input page carries a
 * hidden {@value #ROW_COLUMN} column (the position's number), which the operator passes through
 * like any column it does not know; an output position is then the input position with the columns
 * the operator added or replaced laid over it, so fields the command never saw (and multivalues)
 * survive. Output without that column is new results.
 */
public final class PluginOperators {
  /** The hidden column that ties output positions to input positions. */
  public static final String ROW_COLUMN = "_quarry_row";

  /**
   * Positions a page when results are re-paged as they come ({@link RowPaging}, {@link
   * SubPipeline}).
   */
  static final int BATCH = 1024;

  private PluginOperators() {}

  /**
   * Runs a generating plugin command on pages: its operator is finished at once and drained, each
   * page it makes handed to {@code pages} (and released after) until that answers false.
   */
  public static void generatePages(
      PluginCommand command, Evaluator evaluator, java.util.function.Predicate<Page> pages) {
    Driver driver = new Driver(command, command.bound(), evaluator.pluginContext());
    boolean[] open = {true};
    try {
      driver.finish(
          page -> {
            if (open[0]) {
              open[0] = pages.test(page);
            }
            driver.factory().release(page);
          });
    } finally {
      driver.close();
    }
  }

  /** A position's value: null, the value, or a list of several (a multivalue). */
  static Object value(Block block, int position) {
    List<Object> values = block.getValues(position);
    return switch (values.size()) {
      case 0 -> null;
      case 1 -> values.get(0);
      default -> values;
    };
  }

  /**
   * Drives one plugin operator; every call into it is wrapped. While the operator is blocked
   * ({@link Operator#isBlocked}) the driver waits and calls nothing else on it, checking every
   * {@value Operator#CANCEL_CHECK_MILLIS} ms whether the search was cancelled; a cancelled search
   * leaves with the {@link CancellationException} of {@link OperatorContext#checkCancelled}, not a
   * plugin failure.
   */
  static final class Driver {
    private final PluginCommand command;
    private final Operator operator;
    private final OperatorContext context;
    private final BlockFactory factory;

    Driver(PluginCommand command, BoundCommand bound, OperatorContext context) {
      this(command, context, PluginOperators.call(command, () -> bound.createOperator(context)));
    }

    Driver(PluginCommand command, OperatorContext context, Operator operator) {
      this.command = command;
      this.context = context;
      this.factory = context.blockFactory();
      this.operator = operator;
    }

    BlockFactory factory() {
      return factory;
    }

    /** Adds a page, draining output until the operator takes it. */
    void add(Page page, Consumer<Page> output) {
      while (true) {
        awaitUnblocked();
        if (invoke(operator::needsInput)) {
          break;
        }
        if (invoke(operator::isFinished)) {
          factory.release(page);
          return;
        }
        Page out = invoke(operator::getOutput);
        if (out != null) {
          output.accept(out);
        } else if (blockedNow() == null) {
          throw failure("operator neither needs input nor has output, and is not blocked");
        }
      }
      invoke(
          () -> {
            operator.addInput(page);
            return null;
          });
      drain(output);
    }

    /** Finishes the operator and drains everything it still has. */
    void finish(Consumer<Page> output) {
      awaitUnblocked();
      invoke(
          () -> {
            operator.finish();
            return null;
          });
      int idle = 0;
      while (true) {
        awaitUnblocked();
        if (invoke(operator::isFinished)) {
          return;
        }
        Page out = invoke(operator::getOutput);
        if (out != null) {
          idle = 0;
          output.accept(out);
        } else if (blockedNow() == null) {
          if (++idle > 1_000_000) {
            throw failure(
                "operator never finishes after finish() (an operator that waits returns a future"
                    + " from isBlocked)");
          }
          Thread.onSpinWait();
        }
      }
    }

    /** Hands on the output the operator has now, stopping when it is blocked or has none. */
    private void drain(Consumer<Page> output) {
      Page out;
      while (blockedNow() == null && (out = invoke(operator::getOutput)) != null) {
        output.accept(out);
      }
    }

    /** The operator's blocked future when it is not done yet, else null. */
    private CompletableFuture<Void> blockedNow() {
      CompletionStage<Void> blocked = invoke(operator::isBlocked);
      if (blocked == Operator.NOT_BLOCKED) {
        return null;
      }
      if (blocked == null) {
        throw failure("isBlocked returned null (return Operator.NOT_BLOCKED)");
      }
      CompletableFuture<Void> future = blocked.toCompletableFuture();
      if (!future.isDone()) {
        return future;
      }
      waitFor(future); // done: rethrows how it failed, if it did
      return null;
    }

    /** Waits until the operator is not blocked, or the search is cancelled. */
    private void awaitUnblocked() {
      CompletableFuture<Void> future = blockedNow();
      if (future != null) {
        waitFor(future);
      }
    }

    private void waitFor(CompletableFuture<Void> future) {
      while (true) {
        context.checkCancelled();
        try {
          future.get(Operator.CANCEL_CHECK_MILLIS, TimeUnit.MILLISECONDS);
          return;
        } catch (TimeoutException stillBlocked) {
          // check for cancellation again
        } catch (ExecutionException e) {
          throw new PluginFailureException(command.name(), command.plugin(), e.getCause());
        } catch (CancellationException e) {
          throw failure("its isBlocked future was cancelled");
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new CancellationException("interrupted waiting for " + command.describe());
        }
      }
    }

    /** A call into the operator; its {@code checkCancelled} in a cancelled search is no failure. */
    private <T> T invoke(Callable<T> call) {
      try {
        return PluginOperators.call(command, call);
      } catch (PluginFailureException e) {
        if (e.getCause() instanceof CancellationException cancelled && context.isCancelled()) {
          throw cancelled;
        }
        throw e;
      }
    }

    private PluginFailureException failure(String problem) {
      return new PluginFailureException(
          command.name(), command.plugin(), new IllegalStateException(problem));
    }

    void close() {
      invoke(
          () -> {
            operator.close();
            return null;
          });
    }
  }

  static <T> T call(PluginCommand command, Callable<T> call) {
    try {
      return call.call();
    } catch (PluginFailureException e) {
      throw e; // a built-in running commands of its own failed in one of them: named already
    } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
      throw new PluginFailureException(command.name(), command.plugin(), e);
    }
  }
}
