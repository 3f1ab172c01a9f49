package io.quarry.plugin.api.command;

import io.quarry.plugin.api.data.Page;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A pull-protocol operator over typed pages, as built-in operators are: the driver loops
 *
 * <pre>{@code
 * while (!op.isFinished()) {
 *   wait for op.isBlocked() (or the search's cancellation);
 *   if (op.needsInput() && source has a page) op.addInput(page);
 *   else if (source is done) op.finish();
 *   Page out = op.getOutput(); if (out != null) downstream(out);
 * }
 * }</pre>
 *
 * <p>An operator that waits on something outside the search (a remote lookup, a model server, a
 * slow file) does not spin or sleep in its methods: it starts the work, returns a future that is
 * not yet done from {@link #isBlocked}, and the driver calls nothing else on it until that future
 * completes. Meanwhile the driver still notices the search being cancelled (within {@value
 * #CANCEL_CHECK_MILLIS} ms) and then closes the operator.
 *
 * <p>{@code addInput} hands the page's blocks to the operator; {@code getOutput} hands the returned
 * page's blocks to the caller (see {@link io.quarry.plugin.api.data.BlockFactory} for releasing).
 * An exception thrown from any method fails the search with an error naming the plugin; the server
 * and other searches go on. {@link #close} is always called, also after a failure or cancellation.
 */
public interface Operator extends AutoCloseable {
  /**
   * What {@link #isBlocked} returns while an operator can make progress: a completed stage that
   * cannot be completed again (return it, do not build a new completed future per call).
   */
  CompletionStage<Void> NOT_BLOCKED = CompletableFuture.completedStage(null);

  /** How often a driver waiting on a blocked operator checks whether its search was cancelled. */
  int CANCEL_CHECK_MILLIS = 20;

  /**
   * {@link #NOT_BLOCKED} when the operator can take input or give output now; otherwise a stage
   * that completes when it can again (completing it exceptionally fails the search with that
   * cause). Called before every other call of the driver loop, so it must be cheap.
   */
  default CompletionStage<Void> isBlocked() {
    return NOT_BLOCKED;
  }

  /** Whether {@link #addInput} may be called now. */
  boolean needsInput();

  void addInput(Page page);

  /** No more input will come: emit what is held. */
  void finish();

  /** Whether the operator is finished and has no more output. */
  boolean isFinished();

  /** The next output page, or null when there is none right now. */
  Page getOutput();

  /** Releases what the operator holds. */
  @Override
  default void close() {}
}
