package io.quarry.server.http;

import java.util.concurrent.ArrayBlockingQueue;

/**
 * Arrays a request's body is copied into ({@link Exchange#bodyInto}) and given back once nothing
 * reads them (issue 23, session 46): an HEC {@code /raw} body is the events' own bytes until the
 * store has written them ({@code Event.ofAscii}: each event a range of it), and a new array per
 * body was a multi-megabyte allocation per request, zeroed by the JVM before the copy overwrote it
 * and allocated by G1 as a humongous object (its own regions, often ones the heap had never
 * touched: a page fault per 4 KiB). The ingest profile of a 2M-line {@code quarry ingest} had that
 * zeroing at 2–10% of the request threads' samples (block-index.md, "Ingest CPU (session 46,
 * ing46)").
 *
 * <p>An array taken is the caller's alone until it gives it back; a body shorter than the array
 * leaves the rest of it as an earlier body left it, so every reader takes the body's length, never
 * the array's. Bounded: at most {@link #KEPT} arrays of at most {@link #KEPT_BYTES} each are kept
 * (32 MiB at most, whatever the number of requests in flight); a larger body gets an array of its
 * own, which is dropped. One per route that takes bodies so (HEC's); thread-safe.
 */
public final class BodyArrays {
  /** How many arrays are kept for later bodies. */
  static final int KEPT = 4;

  /** The largest array kept. */
  static final int KEPT_BYTES = 8 << 20;

  /** Arrays are made in steps of this, so bodies of about one size (cut at line ends) share one. */
  static final int STEP = 256 << 10;

  private final ArrayBlockingQueue<byte[]> kept = new ArrayBlockingQueue<>(KEPT);

  /** How many arrays are kept now (for tests). */
  int keptCount() {
    return kept.size();
  }

  /**
   * An array of at least {@code length} bytes: a kept one when one is long enough, else a new one
   * (its length rounded up to {@link #STEP} when it may be kept). Give it back with {@link
   * #giveBack} once nothing reads it.
   */
  public byte[] take(int length) {
    if (length <= KEPT_BYTES) {
      for (int tries = 0; tries < KEPT; tries++) {
        byte[] array = kept.poll();
        if (array == null) {
          break;
        }
        if (array.length >= length) {
          return array;
        }
        // too short for this body: kept for shorter ones unless the queue filled meanwhile
        kept.offer(array);
      }
      return new byte[Math.min(KEPT_BYTES, (int) ceilToStep(length))];
    }
    return new byte[length];
  }

  /** Keeps {@code array} for a later body when there is room and it is not too large. */
  public void giveBack(byte[] array) {
    if (array != null && array.length <= KEPT_BYTES) {
      kept.offer(array);
    }
  }

  private static long ceilToStep(int length) {
    return (Math.max(length, 1) + (long) STEP - 1) / STEP * STEP;
  }
}
