package io.quarry.codecs.store;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A store call run on another thread and waited for a bounded time: whether it ended while what it
 * might wait for is held, then (once released) its result. What the call threw is thrown by the
 * waits.
 */
final class Timed<T> {
  /** What {@link #until} waits for; a store's state may throw. */
  interface Condition {
    boolean holds() throws Exception;
  }

  /** A store call without a result. */
  @FunctionalInterface
  interface Call {
    void run() throws Exception;
  }

  private final Future<T> future;

  private Timed(Future<T> future) {
    this.future = future;
  }

  /** Starts {@code call} on {@code executor}. */
  static <T> Timed<T> call(ExecutorService executor, Callable<T> call) {
    return new Timed<>(executor.submit(call));
  }

  /** Starts {@code call} on {@code executor}. */
  static Timed<Void> run(ExecutorService executor, Call call) {
    return call(
        executor,
        () -> {
          call.run();
          return null;
        });
  }

  /** Whether the call ended within {@code seconds}. */
  boolean endsWithin(long seconds) throws InterruptedException, ExecutionException {
    try {
      future.get(seconds, TimeUnit.SECONDS);
      return true;
    } catch (TimeoutException e) {
      return false;
    }
  }

  /**
   * Polls {@code condition} every 20 ms until it holds or {@code seconds} passed; the caller then
   * asserts what it waited for (so a timeout fails with the test's own message).
   */
  static void until(long seconds, Condition condition) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!condition.holds() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  /** The call's result, waiting at most {@code seconds} for it. */
  T result(long seconds) throws InterruptedException, ExecutionException, TimeoutException {
    return future.get(seconds, TimeUnit.SECONDS);
  }
}
