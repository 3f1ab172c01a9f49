package io.quarry.codecs.store;

import java.util.concurrent.TimeUnit;

/**
 * The slices of one {@link ParallelScan} that are running now, and whether the scan was abandoned
 * (one of its slices failed, or the thread waiting for it was interrupted). A slice enters before
 * it reads and exits when its visitor is closed; once the scan is abandoned no slice enters (it
 * reads nothing), the running ones stop at their cursor's next {@link SliceCursor#advance}, and the
 * scan waits for them ({@link #awaitNone}) before it throws: nothing a slice charges to its search,
 * or hands over, arrives after the scan returned. A {@link java.util.concurrent.Future} cannot tell
 * that: a cancelled one is done at once, while its task may still run.
 */
final class RunningSlices {
  private int running; // guarded by this
  private volatile boolean abandoned;

  /** Whether a slice may start reading; if so it is counted until {@link #exit}. */
  synchronized boolean enter() {
    if (abandoned) {
      return false;
    }
    running++;
    return true;
  }

  /** A slice that {@link #enter entered} ended: its visitor is closed. */
  synchronized void exit() {
    running--;
    notifyAll();
  }

  /** The scan ends with an error: no slice starts from now, the running ones stop. */
  void abandon() {
    abandoned = true;
  }

  /** Whether the scan was abandoned: a running slice's cursor ends at its next advance. */
  boolean abandoned() {
    return abandoned;
  }

  /**
   * Waits until no slice runs, at most {@code timeoutNanos}, through interrupts (each remembered
   * and set again on return): the caller is ending the scan because it was interrupted, and what it
   * gives back next must not be in use. Returns how many slices still run (0: every one ended).
   */
  synchronized int awaitNone(long timeoutNanos) {
    boolean interrupted = false;
    long deadline = System.nanoTime() + timeoutNanos;
    try {
      long left = timeoutNanos;
      while (running > 0 && left > 0) {
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          interrupted = true;
        }
        left = deadline - System.nanoTime();
      }
      return running;
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
