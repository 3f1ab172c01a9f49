package io.quarry.ql.exec;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayDeque;

/**
 * A pull operator that may answer an input page with several pages ({@link #process}), or hold its
 * input and answer when the input is over (a blocking command: {@code sort}, {@code eventstats},
 * {@code transaction} …). What it {@link #emit}s waits in a queue, and it takes no input while the
 * queue holds a page; once the input is over ({@link #onFinish}) and the queue is drained, {@link
 * #produce} builds its remaining pages one at a time as they are pulled, so a blocking command need
 * not hold its whole answer as pages at once. Public for the built-in commands' {@code
 * builtins.QueueOperator}, which adds memory accounting.
 */
public abstract class QueuedPageOperator implements Operator {
  private final ArrayDeque<Page> output = new ArrayDeque<>();
  private boolean finishing;
  private boolean exhausted; // produce() answered null

  /**
   * Handles one input page; {@link #emit} what it answers. If it throws, it has neither kept nor
   * emitted any of the page (see {@link #rejected}).
   */
  protected abstract void process(Page page);

  /** Called once when the input ends; may {@link #emit} more pages, or get ready to produce. */
  protected void onFinish() {}

  /**
   * After the input ended and the emitted pages were pulled: the next page of the answer, or null
   * when there is no more (it is not asked again).
   */
  protected Page produce() {
    return null;
  }

  /** Queues an output page (an empty one, or null, goes nowhere). */
  protected final void emit(Page page) {
    if (page != null && page.positionCount() > 0) {
      output.addLast(page);
    }
  }

  /** Releases the pages emitted and not pulled (on close). */
  protected final void releaseQueued(BlockFactory factory) {
    for (Page page : output) {
      factory.release(page);
    }
    output.clear();
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
    try {
      process(page);
    } catch (RuntimeException e) {
      rejected(page);
      throw e;
    }
  }

  /**
   * Called with the input page when {@link #process} threw (over the search's memory limit):
   * process then left the page whole, neither kept nor emitted, and the operator, which owns the
   * pages given to {@code addInput}, gives it back here. Nothing by default (an operator that
   * counts no blocks).
   */
  protected void rejected(Page page) {}

  @Override
  public final Page getOutput() {
    Page out = output.pollFirst();
    if (out != null || !finishing || exhausted) {
      return out;
    }
    while ((out = produce()) != null && out.positionCount() == 0) {
      // an empty page goes nowhere
    }
    exhausted = out == null;
    return out;
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
    return finishing && exhausted && output.isEmpty();
  }
}
