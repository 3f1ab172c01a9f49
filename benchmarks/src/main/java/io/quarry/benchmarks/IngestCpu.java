package io.quarry.benchmarks;

import io.quarry.codecs.store.BucketFormat;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.server.ingest.EventBreaker;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The server's CPU per event of ingesting a log, the way {@code /services/collector/raw} does it
 * after the HTTP layer: each request body's bytes broken into events by the sourcetype ({@link
 * EventBreaker}: lines, index-time extraction, timestamp), then stored ({@link EventStore#write}:
 * each event checked against the index, write-ahead log with fsync, the bucket's documents). One
 * thread; several rounds, each into a fresh store, so the JIT settles over the first ones. On a
 * shared machine wall time is noise: the figure to read is the writing thread's CPU time per event
 * (the least over the rounds after the first), with the whole JVM's (Lucene's flushes at close and
 * merges, the store's committer, garbage collection and the JIT) beside it.
 *
 * <pre>
 * java -cp 'distribution/target/quarry-*&#47;quarry-*&#47;lib/*' \
 *     benchmarks/src/main/java/io/quarry/benchmarks/IngestCpu.java access.log [linesPerRequest] [rounds] [format] [checkFirst] [blockEvents]
 * </pre>
 */
public final class IngestCpu {
  private IngestCpu() {}

  public static void main(String[] args) throws IOException {
    Path log = Path.of(args[0]);
    int linesPerRequest = args.length > 1 ? Integer.parseInt(args[1]) : 16_000;
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    BucketFormat format =
        args.length > 3 ? BucketFormat.valueOf(args[3].toUpperCase()) : BucketFormat.BLOCKS;
    // true: each event checked before the write too, as HecRoutes.raw did before the store's own
    // check became the only one (to measure a build from before that change like for like)
    boolean checkFirst = args.length > 4 && Boolean.parseBoolean(args[4]);
    int blockEvents =
        args.length > 5 ? Integer.parseInt(args[5]) : IndexOptions.DEFAULT_BLOCK_EVENTS;
    List<byte[]> requests = requests(log, linesPerRequest);
    long events = 0;
    for (byte[] request : requests) {
      for (byte b : request) {
        events += b == '\n' ? 1 : 0;
      }
    }
    Sourcetype sourcetype = Sourcetypes.builtIn().forName("access_combined");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] thread = new double[rounds];
    for (int round = 0; round < rounds; round++) {
      Path directory = Files.createTempDirectory("quarry-ingest-cpu");
      long process0 = processCpuNanos();
      long thread0 = threads.getCurrentThreadCpuTime();
      long allocated0 = allocated(threads);
      long wall0 = System.nanoTime();
      try (EventStore store =
          EventStore.open(
              directory,
              Map.of(
                  "main",
                  IndexOptions.builder().format(format).blockEvents(blockEvents).build()))) {
        for (byte[] request : requests) {
          EventBreaker.Result broken = // as HecRoutes.raw, from the body's bytes
              new EventBreaker(sourcetype, "bench", "access.log", Instant.now())
                  .breakEvents(request);
          List<Event> batch = broken.events();
          for (int i = 0; checkFirst && i < batch.size(); i++) {
            if (store.index("main").problem(batch.get(i)) != null) {
              throw new IllegalStateException("rejected: " + batch.get(i).raw());
            }
          }
          store.write("main", batch);
        }
        thread[round] = (threads.getCurrentThreadCpuTime() - thread0) / 1e3 / events;
      }
      long allocatedPerEvent = (allocated(threads) - allocated0) / events;
      double process = (processCpuNanos() - process0) / 1e3 / events;
      System.out.printf(
          "round %d: %,d events, writing thread %.2f µs of CPU per event (%,d bytes allocated),"
              + " whole JVM %.2f (with close), wall %.1f s%n",
          round + 1,
          events,
          thread[round],
          allocatedPerEvent,
          process,
          (System.nanoTime() - wall0) / 1e9);
      org.apache.lucene.util.IOUtils.rm(directory);
    }
    printSettled(thread);
  }

  /**
   * The bytes this thread has allocated (the figure the machine's load does not move: what the
   * ingest leaves the GC), or 0 where the JVM does not count them.
   */
  private static long allocated(ThreadMXBean threads) {
    return threads instanceof com.sun.management.ThreadMXBean counting
        ? counting.getCurrentThreadAllocatedBytes()
        : 0;
  }

  /** The least and the median of the rounds' CPU per event after the first (the JIT's). */
  static void printSettled(double[] thread) {
    int rounds = thread.length;
    double[] settled = Arrays.copyOfRange(thread, Math.min(1, rounds - 1), rounds);
    Arrays.sort(settled);
    System.out.printf(
        "writing thread, rounds 2..%d: least %.2f µs of CPU per event, median %.2f%n",
        rounds, settled[0], settled[settled.length / 2]);
  }

  /** The log's lines, {@code linesPerRequest} to a request body, each line ending in a newline. */
  private static List<byte[]> requests(Path log, int linesPerRequest) throws IOException {
    List<byte[]> requests = new ArrayList<>();
    StringBuilder body = new StringBuilder();
    int lines = 0;
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      body.append(line).append('\n');
      if (++lines == linesPerRequest) {
        requests.add(body.toString().getBytes(StandardCharsets.UTF_8));
        body.setLength(0);
        lines = 0;
      }
    }
    if (lines > 0) {
      requests.add(body.toString().getBytes(StandardCharsets.UTF_8));
    }
    return requests;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }
}
