package io.quarry.plugin.api.command;

import io.quarry.plugin.api.data.Page;

/**
 * A pull-protocol operator over typed pages, as built-in operators are: the driver loops
 *
 * <pre>{@code
 * while (!op.isFinished()) {
 *   if (op.needsInput() && source has a page) op.addInput(page);
 *   else if (source is done) op.finish();
 *   Page out = op.getOutput(); if (out != null) downstream(out);
 * }
 * }</pre>
 *
 * <p>{@code addInput} hands the page's blocks to the operator; {@code getOutput} hands the returned
 * page's blocks to the caller (see {@link io.quarry.plugin.api.data.BlockFactory} for releasing).
 * An exception thrown from any method fails the search with an error naming the plugin; the server
 * and other searches go on. {@link #close} is always called, also after a failure or cancellation.
 */
public interface Operator extends AutoCloseable {

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
