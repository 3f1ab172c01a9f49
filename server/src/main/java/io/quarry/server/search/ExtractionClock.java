package io.quarry.server.search;

import java.util.function.Supplier;

/**
 * Times search-time field extraction (sourcetype extractions, JSON, automatic key=value) on one
 * thread for the job inspector: one extraction in {@value #SAMPLE} is timed and weighed
 * accordingly, so timing costs little next to the extraction itself.
 */
final class ExtractionClock {
  static final int SAMPLE = 16;

  private int calls;
  private long nanos;

  <T> T time(Supplier<T> extraction) {
    if (calls++ % SAMPLE != 0) {
      return extraction.get();
    }
    long started = System.nanoTime();
    T result = extraction.get();
    nanos += (System.nanoTime() - started) * SAMPLE;
    return result;
  }

  /** As {@link #time}, for an extraction that answers a {@code long} (no boxing). */
  long timeLong(java.util.function.LongSupplier extraction) {
    if (calls++ % SAMPLE != 0) {
      return extraction.getAsLong();
    }
    long started = System.nanoTime();
    long result = extraction.getAsLong();
    nanos += (System.nanoTime() - started) * SAMPLE;
    return result;
  }

  /** The estimated time spent so far, and starts over. */
  long take() {
    long taken = nanos;
    nanos = 0;
    return taken;
  }
}
