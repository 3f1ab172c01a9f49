package io.quarry.server.http;

import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads requests run on, in two lanes: ingestion ({@code /services/collector…}) and the
 * liveness endpoints get threads of their own, every other request (searches above all, which hold
 * their thread until the client has read the answer) shares the general pool. So no number of slow
 * or heavy searches keeps HEC from accepting events or {@code /health} from answering. Each lane
 * queues {@link #QUEUE} requests; beyond that a request is refused (503 with Retry-After).
 */
final class WorkerPools {
  /** Requests waiting for a worker of one lane before new ones get 503. */
  static final int QUEUE = 256;

  /** Paths served by the ingest lane: a path equal to one, or under one followed by '/'. */
  static final List<String> INGEST_LANE =
      List.of("/services/collector", "/health", "/metrics", "/ready");

  private final ThreadPoolExecutor general;
  private final ThreadPoolExecutor ingest;

  WorkerPools(int generalThreads, int ingestThreads) {
    this.general = pool(generalThreads, "quarry-worker-");
    this.ingest = pool(ingestThreads, "quarry-ingest-");
  }

  /** The pool a request for {@code path} runs on. */
  ExecutorService forPath(String path) {
    for (String prefix : INGEST_LANE) {
      if (path.equals(prefix) || (path.startsWith(prefix) && path.charAt(prefix.length()) == '/')) {
        return ingest;
      }
    }
    return general;
  }

  /** Lets running requests end for up to {@code seconds}, then interrupts them. */
  void shutdown(long seconds) {
    general.shutdown();
    ingest.shutdown();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      if (!general.awaitTermination(seconds, TimeUnit.SECONDS)) {
        general.shutdownNow();
      }
      long left = Math.max(0, deadline - System.nanoTime());
      if (!ingest.awaitTermination(left, TimeUnit.NANOSECONDS)) {
        ingest.shutdownNow();
      }
    } catch (InterruptedException e) {
      shutdownNow();
      Thread.currentThread().interrupt();
    }
  }

  void shutdownNow() {
    general.shutdownNow();
    ingest.shutdownNow();
  }

  private static ThreadPoolExecutor pool(int threads, String prefix) {
    return new ThreadPoolExecutor(
        threads,
        threads,
        60,
        TimeUnit.SECONDS,
        new ArrayBlockingQueue<>(QUEUE),
        namedThreads(prefix),
        new ThreadPoolExecutor.AbortPolicy());
  }

  private static ThreadFactory namedThreads(String prefix) {
    AtomicInteger counter = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, prefix + counter.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
