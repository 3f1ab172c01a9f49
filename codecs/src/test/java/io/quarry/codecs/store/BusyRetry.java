package io.quarry.codecs.store;

import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * How {@link CrashWriter} writes a batch the index refuses as busy ({@link IndexBusyException}:
 * full buckets wait for their roll, as right after a reopen on a loaded machine): again after
 * {@value #SLEEP_MILLIS} ms, as a shipper does on the server's 503 with {@code Retry-After}, for up
 * to {@value #BOUND_MILLIS} ms from the first try, then the refusal is thrown. The refusal stores
 * and logs nothing of the batch, so a retry neither loses nor duplicates an event. Time is read
 * from a ticker and waited by a sleeper: {@link #SYSTEM}'s are the JVM's, a test's move a clock
 * ({@code BusyRetryTest}).
 */
final class BusyRetry {
  /** How long a batch is tried again, at most, from its first try. */
  static final long BOUND_MILLIS = 60_000;

  /** The pause between two tries. */
  static final long SLEEP_MILLIS = 50;

  /** Waits between two tries. */
  @FunctionalInterface
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  /** On {@link System#nanoTime}, sleeping the thread. */
  static final BusyRetry SYSTEM = new BusyRetry(System::nanoTime, Thread::sleep);

  private final LongSupplier nanos;
  private final Sleeper sleeper;

  BusyRetry(LongSupplier nanos, Sleeper sleeper) {
    this.nanos = nanos;
    this.sleeper = sleeper;
  }

  /** Runs {@code write}, again after a sleep while it is refused as busy, up to the bound. */
  void write(IOAction write) throws IOException, InterruptedException {
    long deadline = nanos.getAsLong() + BOUND_MILLIS * 1_000_000L;
    while (true) {
      try {
        write.run();
        return;
      } catch (IndexBusyException busy) {
        if (nanos.getAsLong() - deadline >= 0) {
          throw busy;
        }
        sleeper.sleep(SLEEP_MILLIS);
      }
    }
  }
}
