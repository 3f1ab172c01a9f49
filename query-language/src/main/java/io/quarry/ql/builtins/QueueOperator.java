package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayDeque;

/**
 * The base of a page operator that may hold input and emit any number of pages per input page or at
 * the end: subclasses {@link #emit} output from {@link #process} and {@link #end}. Pages emitted
 * and not yet collected are released by {@link #close}, as is every byte the subclass {@link
 * #reserve}d.
 */
abstract class QueueOperator implements Operator {
  protected final BlockFactory factory;
  private final ArrayDeque<Page> output = new ArrayDeque<>();
  private final String what;
  private long reserved;
  private boolean finishing;

  QueueOperator(BlockFactory factory, String what) {
    this.factory = factory;
    this.what = what;
  }

  /** Handles one input page (the operator owns it). */
  protected abstract void process(Page page);

  /** No more input: emits what is held. */
  protected void end() {}

  protected final void emit(Page page) {
    if (page != null) {
      output.addLast(page);
    }
  }

  /** Counts operator state (not blocks) against the search's memory. */
  protected final void reserve(long bytes) {
    factory.reserve(bytes, what);
    reserved += bytes;
  }

  /** Gives back everything {@link #reserve}d so far. */
  protected final void releaseReserved() {
    factory.release(reserved);
    reserved = 0;
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
  public final void finish() {
    if (!finishing) {
      finishing = true;
      end();
    }
  }

  @Override
  public final boolean isFinished() {
    return finishing && output.isEmpty();
  }

  @Override
  public final Page getOutput() {
    return output.pollFirst();
  }

  @Override
  public void close() {
    for (Page page : output) {
      factory.release(page);
    }
    output.clear();
    releaseReserved();
  }
}
