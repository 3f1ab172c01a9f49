package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.PluginCommand;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionStage;

/**
 * A plugin command's operator in a {@link Driver}'s chain: every call into plugin code is wrapped,
 * so a throwing plugin fails its search with a {@link PluginFailureException} naming it (a {@link
 * OperatorContext#checkCancelled} in a cancelled search stays a cancellation); the input pages'
 * blocks are reserved on the operator's block factory (the operator owns them) and its output pages
 * released as it gives them up — unless the caller keeps that account itself (a batch search holds
 * a transforming plugin's state pages reserved until its reduce side takes them, {@link
 * TransformingPlugin}).
 */
final class PluginOperator implements Operator, RunsPlugin {
  private final PluginCommand command;
  private final Operator operator;
  private final OperatorContext context;
  private final BlockFactory factory;
  private final boolean reservesInput;
  private final boolean releasesOutput;

  /**
   * The operator {@code bound} creates in {@code context}; its input pages reserved, its output
   * released as it gives it up.
   */
  PluginOperator(PluginCommand command, BoundCommand bound, OperatorContext context) {
    this(command, bound, context, true);
  }

  /** As above; {@code releasesOutput} false when the caller releases the output pages itself. */
  PluginOperator(
      PluginCommand command, BoundCommand bound, OperatorContext context, boolean releasesOutput) {
    this(
        command,
        context,
        PluginOperators.call(command, () -> bound.createOperator(context)),
        true,
        releasesOutput);
  }

  /**
   * An operator made elsewhere (a transforming plugin's reduce side); {@code reservesInput} false
   * when the pages it is given are reserved on its factory already.
   */
  PluginOperator(
      PluginCommand command,
      OperatorContext context,
      Operator operator,
      boolean reservesInput,
      boolean releasesOutput) {
    this.command = requireNonNull(command, "command is null");
    this.context = requireNonNull(context, "context is null");
    this.operator = requireNonNull(operator, "operator is null");
    this.factory = context.blockFactory();
    this.reservesInput = reservesInput;
    this.releasesOutput = releasesOutput;
  }

  BlockFactory factory() {
    return factory;
  }

  OperatorContext context() {
    return context;
  }

  @Override
  public CompletionStage<Void> isBlocked() {
    return invoke(operator::isBlocked);
  }

  @Override
  public boolean needsInput() {
    return invoke(operator::needsInput);
  }

  @Override
  public void addInput(Page page) {
    if (reservesInput) {
      reserve(page);
    }
    try {
      invoke(
          () -> {
            operator.addInput(page);
            return null;
          });
    } catch (RuntimeException e) {
      if (operator instanceof PageTransformOperator) {
        factory.release(page); // its process threw: the page was neither kept nor passed on
      }
      throw e;
    }
  }

  /**
   * Reserves all of {@code page}'s blocks or none: over the limit, the blocks reserved before the
   * failing one are released again (the page was not taken, so no close would release them).
   */
  private void reserve(Page page) {
    int reserved = 0;
    try {
      for (Block block : page.blocks()) {
        factory.reserve(block);
        reserved++;
      }
    } catch (RuntimeException e) {
      for (int i = 0; i < reserved; i++) {
        factory.release(page.blocks().get(i));
      }
      throw e;
    }
  }

  @Override
  public Page getOutput() {
    Page out = invoke(operator::getOutput);
    if (out != null && releasesOutput) {
      factory.release(out); // given up: its next holder accounts for it
    }
    return out;
  }

  @Override
  public void finish() {
    invoke(
        () -> {
          operator.finish();
          return null;
        });
  }

  @Override
  public boolean isFinished() {
    return invoke(operator::isFinished);
  }

  /**
   * Closes the plugin's operator. A page a {@link PageTransformOperator} still holds (closed before
   * it was pulled: a cancelled or failed search) is released here, as that base class cannot: its
   * blocks were reserved on this factory when the input came in, and {@code getOutput} there is
   * final and runs no plugin code.
   */
  @Override
  public void close() {
    if (operator instanceof PageTransformOperator transform) {
      Page pending = transform.getOutput();
      if (pending != null) {
        factory.release(pending);
      }
    }
    invoke(
        () -> {
          operator.close();
          return null;
        });
  }

  /** A page the finished operator was not given (a page reserved already is released). */
  void dropped(Page page) {
    if (!reservesInput) {
      factory.release(page);
    }
  }

  @Override
  public PluginFailureException failure(Throwable cause) {
    return failure(command, cause);
  }

  /** The failure of {@code command}, caused by {@code cause}. */
  static PluginFailureException failure(PluginCommand command, Throwable cause) {
    return new PluginFailureException(command.name(), command.plugin(), cause);
  }

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
}
