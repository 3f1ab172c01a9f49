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

  private static final long NOT_SAMPLED = Long.MIN_VALUE;

  /**
   * As {@link #time}, for a hot path that should not make a lambda per call: {@code long t =
   * clock.start(); …; clock.stop(t);}.
   */
  long start() {
    return calls++ % SAMPLE == 0 ? System.nanoTime() : NOT_SAMPLED;
  }

  /** Ends what {@link #start} began. */
  void stop(long started) {
    if (started != NOT_SAMPLED) {
      nanos += (System.nanoTime() - started) * SAMPLE;
    }
  }

  /** Adds a time measured whole (a block run's extraction: one clock pair for many events). */
  void add(long nanos) {
    this.nanos += nanos;
  }

  /** The estimated time spent so far, and starts over. */
  long take() {
    long taken = nanos;
    nanos = 0;
    return taken;
  }
}
