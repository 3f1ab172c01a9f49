package io.quarry.benchmarks;

import io.quarry.codecs.store.Event;
import io.quarry.server.ingest.EventBreaker;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The ingest threads' CPU per event of breaking a log into events and nothing else ({@link
 * EventBreaker}: lines, the sourcetype's index-time fields, the timestamp), the part of {@code
 * /services/collector/raw} before the store: the instrument for the sourcetype package's per-event
 * parses, whose cost the store's noise hides in {@link IngestCpu}. One thread; each round breaks
 * every request body of the log once; read the least of rounds 2 on. It prints a checksum of every
 * event's {@code _time} and index-time fields, so two builds can be shown to give the same events.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar benchmarks/src/main/java/io/quarry/benchmarks/BreakCpu.java \
 *     access.log [sourcetype] [linesPerRequest] [rounds]
 * </pre>
 */
public final class BreakCpu {
  private BreakCpu() {}

  public static void main(String[] args) throws IOException {
    Path log = Path.of(args[0]);
    String name = args.length > 1 ? args[1] : "access_combined";
    int linesPerRequest = args.length > 2 ? Integer.parseInt(args[2]) : 16_000;
    int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 8;
    List<byte[]> requests = requests(log, linesPerRequest);
    Sourcetype sourcetype = Sourcetypes.builtIn().forName(name);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[] perEvent = new double[rounds];
    long checksum = 0;
    long events = 0;
    for (int round = 0; round < rounds; round++) {
      long sum = 0;
      long count = 0;
      long cpu0 = threads.getCurrentThreadCpuTime();
      for (byte[] request : requests) {
        List<Event> broken =
            new EventBreaker(sourcetype, "bench", "access.log", Instant.EPOCH)
                .breakEvents(request)
                .events();
        for (Event event : broken) {
          sum = sum * 31 + event.timeMicros();
        }
        count += broken.size();
        if (round == 0) { // the fields once: their hashing is not what is measured
          for (Event event : broken) {
            sum = sum * 31 + fieldsHash(event.indexedFields());
          }
        }
      }
      long cpu = threads.getCurrentThreadCpuTime() - cpu0;
      perEvent[round] = (double) cpu / count;
      if (round == 0) {
        checksum = sum;
        events = count;
      }
      System.out.printf("round %d: %.1f ns/event (%d events)%n", round + 1, perEvent[round], count);
    }
    int from = Math.min(1, rounds - 1); // the first round alone when there is only one
    double least = Arrays.stream(perEvent, from, rounds).min().orElseThrow();
    System.out.printf(
        "%s %s: least of rounds %d..%d %.1f ns/event; %d events, checksum %016x%n",
        log.getFileName(), name, from + 1, rounds, least, events, checksum);
  }

  private static long fieldsHash(Map<String, List<String>> fields) {
    long hash = 0;
    for (Map.Entry<String, List<String>> field : new java.util.TreeMap<>(fields).entrySet()) {
      hash = hash * 31 + field.getKey().hashCode();
      hash = hash * 31 + field.getValue().hashCode();
    }
    return hash;
  }

  /** The log's lines in bodies of {@code linesPerRequest}, each line ending in a line feed. */
  private static List<byte[]> requests(Path log, int linesPerRequest) throws IOException {
    byte[] all = Files.readAllBytes(log);
    List<byte[]> requests = new ArrayList<>();
    int start = 0;
    int lines = 0;
    for (int i = 0; i < all.length; i++) {
      if (all[i] == '\n' && ++lines == linesPerRequest) {
        requests.add(Arrays.copyOfRange(all, start, i + 1));
        start = i + 1;
        lines = 0;
      }
    }
    if (start < all.length) {
      requests.add(Arrays.copyOfRange(all, start, all.length));
    }
    return requests;
  }
}
