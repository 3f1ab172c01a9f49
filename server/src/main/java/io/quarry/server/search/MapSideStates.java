package io.quarry.server.search;

import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.PagesSource;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The state pages a transforming plugin command's map side leaves in a batch search's slices
 * ({@code exec.TransformingPlugin#mapSide}, the last step of each slice's chain, on any search
 * thread): each one reserved on the search's plugin block factory until the reduce side takes it
 * after the scan ({@link #source}, {@link PageReduce#afterMapSide}), or given back when the search
 * ends without it ({@link #close}: failed, cancelled, nothing more wanted). The plugin's
 * counterpart of the built-in aggregations' partials ({@link PageAggregation}): its states are
 * merged by its reduce operator, not here.
 */
final class MapSideStates implements java.util.function.Consumer<Page> {
  private final Queue<Page> states = new ConcurrentLinkedQueue<>();
  private final BlockFactory factory;
  private volatile boolean closed;

  /** States reserved on {@code factory}. */
  MapSideStates(BlockFactory factory) {
    this.factory = factory;
  }

  /**
   * A slice's map side made a state page (reserved): held until drained or closed; given back at
   * once after {@link #close} (a slice that ended after the search did).
   */
  @Override
  public void accept(Page state) {
    states.add(state);
    if (closed) { // added after close's last poll, or taken by it: either gives it back once
      releaseHeld();
    }
  }

  /**
   * The state pages as a pulled source for the reduce side after the map side ({@link
   * PageReduce#afterMapSide}): each one it hands on is its reduce operator's from then on; those it
   * never hands on (nothing more wanted) stay here until {@link #close}.
   */
  PagesSource source() {
    return PagesSource.of(
        new java.util.Iterator<>() {
          @Override
          public boolean hasNext() {
            return !states.isEmpty();
          }

          @Override
          public Page next() {
            Page state = states.poll();
            if (state == null) {
              throw new java.util.NoSuchElementException();
            }
            return state;
          }
        });
  }

  /** Gives back every state page still held, and each one handed over from then on. */
  void close() {
    closed = true;
    releaseHeld();
  }

  private void releaseHeld() {
    for (Page state = states.poll(); state != null; state = states.poll()) {
      factory.release(state);
    }
  }
}
