package io.quarry.ql.builtins;

import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.QueuedPageOperator;

/**
 * A {@link QueuedPageOperator} of a built-in command that counts its state against the search's
 * memory: pages emitted and not yet collected are released by {@link #close}, as is every byte the
 * subclass {@link #reserve}d. The input page is the operator's from {@code addInput}, also when
 * {@code process} throws: process builds a page's new columns all before replacing any ({@link
 * Cells#withColumns}), so a throw leaves the page whole, and it is released here ({@link
 * #rejected}). A page process keeps or emits is released by the operator as it drops it.
 */
abstract class QueueOperator extends QueuedPageOperator {
  protected final BlockFactory factory;
  private final String what;
  private long reserved;

  QueueOperator(BlockFactory factory, String what) {
    this.factory = factory;
    this.what = what;
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

  /** {@code process} threw: the page it left whole is released. */
  @Override
  protected final void rejected(Page page) {
    factory.release(page);
  }

  @Override
  public void close() {
    releaseQueued(factory);
    releaseReserved();
  }
}
