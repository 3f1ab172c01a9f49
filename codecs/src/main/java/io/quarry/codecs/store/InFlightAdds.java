package io.quarry.codecs.store;

import java.io.InterruptedIOException;

/**
 * The adds that appended to one generation of an index's write-ahead log and may still be adding
 * their events to a bucket: the commit rolls the log, starts a new count and waits for the old one
 * to drain before it commits the bucket and deletes the old generation, so every logged event is
 * committed or still logged — while the adds of the new generation go on.
 */
final class InFlightAdds {
  private int adds;

  synchronized void enter() {
    adds++;
  }

  synchronized void leave() {
    if (--adds == 0) {
      notifyAll();
    }
  }

  /** Returns when every add that entered has left. */
  synchronized void awaitNone() throws InterruptedIOException {
    while (adds > 0) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted waiting for adds to finish");
      }
    }
  }
}
