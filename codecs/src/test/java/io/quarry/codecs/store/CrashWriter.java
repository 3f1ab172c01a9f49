package io.quarry.codecs.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The child process of {@link CrashRecoveryTest}: {@value #THREADS} threads write batches of
 * numbered events to the index {@code main} concurrently, each printing {@code ACK <thread> <last
 * number>} after a write returns (that is, after the batch is durable). Commits run every 100 ms
 * and buckets roll every 300 events, so kills land in every phase: appends, fsyncs, commits, rolls.
 * The third argument is the index's bucket format; with {@code blocks} every fifth batch is 300
 * events (two blocks, one partly full), written in increasing time (a block sorts them back).
 *
 * <p>A batch the index refuses as busy ({@link IndexBusyException}: full buckets wait for their
 * roll, as right after a reopen on a loaded machine) is written again after a short sleep, as a
 * shipper does on the server's 503 with {@code Retry-After}, for up to a minute ({@link
 * BusyRetry}): the refusal stores and logs nothing of the batch, so the retry neither loses nor
 * duplicates an event. Any other failure, or a busy index past that bound, ends the child (exit
 * status 3).
 */
public final class CrashWriter {
  static final int THREADS = 2;

  private CrashWriter() {}

  public static void main(String[] args) throws Exception {
    Path data = Path.of(args[0]);
    String round = args[1];
    BucketFormat format = BucketFormat.fromName(args[2]);
    IndexOptions options =
        IndexOptions.builder()
            .commitInterval(Duration.ofMillis(100))
            .maxBucketEvents(300)
            .maxHotAge(Duration.ofDays(1))
            .format(format)
            .build();
    EventStore store = EventStore.open(data, Map.of("main", options));
    for (int t = 0; t < THREADS; t++) {
      int thread = t;
      Thread writer =
          new Thread(
              () -> {
                try {
                  int next = 0;
                  int batches = 0;
                  while (true) {
                    boolean large = format == BucketFormat.BLOCKS && ++batches % 5 == 0;
                    int size = large ? 300 : 1 + (next % 7);
                    List<Event> batch = new ArrayList<>(size);
                    for (int i = 0; i < size; i++) {
                      batch.add(
                          new Event(
                              1_000_000L * next + i,
                              "event "
                                  + round
                                  + "-"
                                  + thread
                                  + "-"
                                  + (next + i)
                                  + " payload "
                                  + "x".repeat(next % 50),
                              "h",
                              "s",
                              "crash",
                              Map.of()));
                    }
                    // every other batch as the breaker hands a body's lines: ranges of one array
                    List<Event> written = next % 2 == 0 ? BodyRanges.inOneBody(batch) : batch;
                    BusyRetry.SYSTEM.write(() -> store.write("main", written));
                    next += size;
                    synchronized (System.out) {
                      System.out.println("ACK " + thread + " " + (next - 1));
                      System.out.flush();
                    }
                  }
                } catch (Exception e) {
                  e.printStackTrace();
                  System.exit(3);
                }
              });
      writer.start();
    }
    Thread.currentThread().join();
  }
}
