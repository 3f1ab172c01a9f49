package io.quarry.codecs.store;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The refreshes of one hot bucket's searchers, shared: every add bumps a generation; a caller whose
 * adds a finished or running refresh already covers waits for it instead of running its own, so
 * concurrent writers and searches pay for one refresh, not one each.
 */
final class SharedRefresh {
  private final AtomicLong addedGeneration = new AtomicLong();
  private final Object monitor = new Object();
  private long refreshedGeneration; // guarded by monitor
  private boolean refreshing; // guarded by monitor

  /** An add returned from the writer. */
  void added() {
    addedGeneration.incrementAndGet();
  }

  /** A counter bumped after every add; pass it to {@link #refresh}. */
  long addedGeneration() {
    return addedGeneration.get();
  }

  /** Whether events were added since the last refresh. */
  boolean needed() {
    synchronized (monitor) {
      return refreshedGeneration < addedGeneration.get();
    }
  }

  /**
   * Makes every add up to {@code generation} searchable through {@code reopen} (the bucket's
   * searchers reopened on what its writer holds), or waits for a refresh that does.
   */
  void refresh(long generation, IOAction reopen) throws IOException {
    synchronized (monitor) {
      while (refreshedGeneration < generation && refreshing) {
        try {
          monitor.wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("interrupted while waiting for a refresh");
        }
      }
      if (refreshedGeneration >= generation) {
        return;
      }
      refreshing = true;
    }
    long goal = addedGeneration.get(); // every add counted here has returned from addDocument
    boolean refreshed = false;
    try {
      reopen.run();
      refreshed = true;
    } finally {
      synchronized (monitor) {
        refreshing = false;
        if (refreshed) {
          refreshedGeneration = Math.max(refreshedGeneration, goal);
        }
        monitor.notifyAll();
      }
    }
  }
}
