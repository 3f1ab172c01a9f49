package io.quarry.benchmarks;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.wal.EncodedBatch;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The write-ahead log's encoding alone ({@link EncodedBatch#reusing}, and {@link
 * EncodedBatch#lengthOf}, the count without encoding): a log's lines in batches of 4,096, round
 * after round on one thread, three ways — as HEC {@code /raw} hands them (ASCII ranges of one body,
 * written as the record's body) and as HEC {@code /event} does (texts of their own with two
 * index-time fields, copied) and as the access-log sourcetype does (ranges with the four fields its
 * extraction gives: the ingest's own shape since session 47). Prints the thread's CPU ns per event
 * of each kind, the median of the rounds after the first five. To compare two builds of {@code
 * WalCodec} on a shared machine, run each in its own JVM, alternated (session 39: the one walk of
 * the format both use).
 *
 * <pre>
 * java -cp 'benchmarks.jar' benchmarks/src/main/java/io/quarry/benchmarks/WalEncodeCpu.java \
 *     access-200k.log [rounds]
 * </pre>
 */
public final class WalEncodeCpu {
  private static final int BATCH = 4_096;

  private WalEncodeCpu() {}

  public static void main(String[] args) throws IOException {
    List<String> lines = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8);
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 25;
    byte[] body = String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    List<List<Event>> ranges = new ArrayList<>();
    List<List<Event>> copied = new ArrayList<>();
    List<List<Event>> access = new ArrayList<>();
    Sourcetype accessLog = Sourcetypes.builtIn().forName("access_combined");
    int offset = 0;
    for (int from = 0; from < lines.size(); from += BATCH) {
      List<Event> range = new ArrayList<>();
      List<Event> own = new ArrayList<>();
      List<Event> fielded = new ArrayList<>();
      for (int i = from; i < Math.min(lines.size(), from + BATCH); i++) {
        String line = lines.get(i);
        long time = 1_767_744_000_000_000L + i;
        range.add(
            Event.ofAscii(
                time,
                body,
                offset,
                line.length(),
                null,
                "web-1",
                "access.log",
                "access",
                Map.of()));
        Map<String, List<String>> fields = accessLog.asciiIndexFields(body, offset, line.length());
        fielded.add(
            Event.ofAscii(
                time,
                body,
                offset,
                line.length(),
                null,
                "web-1",
                "access.log",
                "access_combined",
                fields == null ? Map.of() : fields));
        own.add(
            new Event(
                time,
                line,
                "web-1",
                "access.log",
                "access",
                Map.of("status", List.of("200"), "method", List.of("GET"))));
        offset += line.length() + 1;
      }
      ranges.add(range);
      copied.add(own);
      access.add(fielded);
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    List<Long> rangeNanos = new ArrayList<>();
    List<Long> copiedNanos = new ArrayList<>();
    List<Long> lengthNanos = new ArrayList<>();
    List<Long> accessNanos = new ArrayList<>();
    long check = 0;
    for (int round = 0; round < rounds; round++) {
      long started = threads.getCurrentThreadCpuTime();
      for (List<Event> batch : ranges) {
        EncodedBatch encoded = EncodedBatch.reusing(batch);
        check += encoded.rawBytes();
        encoded.giveBack();
      }
      long rangesDone = threads.getCurrentThreadCpuTime();
      for (List<Event> batch : copied) {
        EncodedBatch encoded = EncodedBatch.reusing(batch);
        check += encoded.rawBytes();
        encoded.giveBack();
      }
      long copiedDone = threads.getCurrentThreadCpuTime();
      for (List<Event> batch : copied) {
        check += EncodedBatch.lengthOf(batch);
      }
      long lengthsDone = threads.getCurrentThreadCpuTime();
      for (List<Event> batch : access) {
        EncodedBatch encoded = EncodedBatch.reusing(batch);
        check += encoded.rawBytes();
        encoded.giveBack();
      }
      long accessDone = threads.getCurrentThreadCpuTime();
      accessNanos.add((accessDone - lengthsDone) / lines.size());
      rangeNanos.add((rangesDone - started) / lines.size());
      copiedNanos.add((copiedDone - rangesDone) / lines.size());
      lengthNanos.add((lengthsDone - copiedDone) / lines.size());
    }
    System.out.printf(
        "ns/event (median of rounds 6-%d): raw ranges %d, copied with fields %d, lengthOf %d,"
            + " access-log ranges with their four fields %d (check %d)%n",
        rounds,
        median(rangeNanos),
        median(copiedNanos),
        median(lengthNanos),
        median(accessNanos),
        check);
  }

  private static long median(List<Long> rounds) {
    List<Long> kept =
        new ArrayList<>(rounds.subList(Math.min(5, rounds.size() - 1), rounds.size()));
    Collections.sort(kept);
    return kept.get(kept.size() / 2);
  }
}
