package io.quarry.ql.exec;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayDeque;

/**
 * A page operator that answers each input page at once ({@link #process}) and may add pages when
 * the input ends ({@link #onFinish}); its output waits in a queue until pulled.
 */
abstract class QueuedPageOperator implements Operator {
  private final ArrayDeque<Page> output = new ArrayDeque<>();
  private boolean finishing;

  /** Handles one input page; {@link #emit} what it answers. */
  protected abstract void process(Page page);

  /** Called once when the input ends; may {@link #emit} more pages. */
  protected void onFinish() {}

  protected final void emit(Page page) {
    if (page.positionCount() > 0) {
      output.addLast(page);
    }
  }

  @Override
  public final boolean needsInput() {
    return !finishing && output.isEmpty();
  }

  @Override
  public final void addInput(Page page) {
    if (finishing) {
      throw new IllegalStateException("addInput after finish");
    }
    process(page);
  }

  @Override
  public final Page getOutput() {
    return output.pollFirst();
  }

  @Override
  public final void finish() {
    if (!finishing) {
      finishing = true;
      onFinish();
    }
  }

  @Override
  public final boolean isFinished() {
    return finishing && output.isEmpty();
  }
}
