package io.quarry.benchmarks.e2e;

import io.quarry.client.QuarryClient;
import io.quarry.client.SearchResults;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The harness's two Quarry ingest drivers and their figures: HEC {@code /raw} from the harness
 * (bodies made before the clock starts, sent over a few connections) and {@code quarry ingest} in a
 * child JVM, timed until every event is searchable and then until the index is compact, with the
 * server's and the client's CPU.
 */
final class QuarryIngest {
  private final Path workDir;
  private final long events;
  private final int hecEvents;
  private final int hecConnections;
  private final IdleCpu idle; // the server's CPU at idle: what the compaction wait counts as none
  private final PrintStream out = System.out;

  /**
   * For a dataset of {@code events} lines: {@code hecEvents} of them through HEC over {@code
   * hecConnections}, the logs in {@code workDir}; {@code idle} the server's CPU at idle, above
   * which the wait for a compaction counts the server's CPU as progress ({@link CompactionWait}).
   */
  QuarryIngest(Path workDir, long events, int hecEvents, int hecConnections, IdleCpu idle) {
    this.idle = java.util.Objects.requireNonNull(idle, "idle is null");
    this.workDir = workDir;
    this.events = events;
    this.hecEvents = hecEvents;
    this.hecConnections = hecConnections;
  }

  /** The first {@code hecEvents} lines through HEC /raw in 1 MiB bodies into index hec. */
  Map<String, Object> hecRaw(QuarryProcess quarry, Path dataset) throws Exception {
    List<byte[]> bodies = new ArrayList<>();
    long bytes = 0;
    int lines = 0;
    try (BufferedReader reader = Files.newBufferedReader(dataset, StandardCharsets.US_ASCII)) {
      StringBuilder body = new StringBuilder(1 << 20);
      String line;
      while (lines < hecEvents && (line = reader.readLine()) != null) {
        body.append(line).append('\n');
        lines++;
        if (body.length() >= (1 << 20)) {
          bodies.add(body.toString().getBytes(StandardCharsets.US_ASCII));
          body.setLength(0);
        }
      }
      if (!body.isEmpty()) {
        bodies.add(body.toString().getBytes(StandardCharsets.US_ASCII));
      }
    }
    for (byte[] body : bodies) {
      bytes += body.length;
    }
    QuarryClient hec = quarry.hecClient();
    AtomicInteger next = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(hecConnections);
    long start = System.nanoTime();
    try {
      List<Future<?>> senders = new ArrayList<>();
      for (int c = 0; c < hecConnections; c++) {
        senders.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement();
                      i < bodies.size();
                      i = next.getAndIncrement()) {
                    hec.sendRaw(bodies.get(i), "access_combined", "hec", "bench", "hec");
                  }
                  return null;
                }));
      }
      for (Future<?> sender : senders) {
        sender.get();
      }
    } finally {
      pool.shutdownNow();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("events", lines);
    result.put("bytes", bytes);
    result.put("connections", hecConnections);
    result.put("seconds", seconds);
    result.put("mbPerSecond", bytes / 1e6 / seconds);
    result.put("eventsPerSecond", lines / seconds);
    out.printf(
        "HEC /raw: %,d events (%,d bytes, %d connections) in %.1f s = %.1f MB/s, %,.0f events/s%n",
        lines, bytes, hecConnections, seconds, bytes / 1e6 / seconds, lines / seconds);
    // hec's idle compaction (zstd 9, ~1 s of CPU for 200k events) would otherwise run inside the
    // quarry ingest's window whenever that lasts past the idle time (session 36, mergehold)
    double hecCompactSeconds = untilCompact(quarry, "hec", start);
    result.put("secondsUntilCompact", hecCompactSeconds);
    out.printf("HEC index compact after %.1f s%n", hecCompactSeconds);
    return result;
  }

  /** {@code quarry ingest} of the whole dataset into main, then until a search sees every event. */
  Map<String, Object> quarryIngest(QuarryProcess quarry, Path dataset, long rawBytes)
      throws Exception {
    Path log = workDir.resolve("ingest.log");
    List<String> command =
        QuarryProcess.command(
            "1g",
            // as bin/quarry runs every command but the server (C1 only): the client's CPU for 1M
            // lines fell from ~2.6 to ~2.2 s, and was no higher at 5M (RESULTS, session 25)
            List.of("-Xms256m", "-XX:TieredStopAtLevel=1", "-Xshare:auto"),
            "ingest",
            "--url=" + quarry.uri(),
            "--token=" + quarry.hecToken(),
            "--sourcetype=access_combined",
            "--index=main",
            "--host=bench",
            "--no-resume",
            dataset.toAbsolutePath().toString());
    out.printf("quarry ingest of %s (output in %s) …%n", dataset.getFileName(), log);
    long cpuAtStart = quarry.cpuNanos();
    long childrenCpuAtStart = QuarryProcess.childrenCpuNanos();
    long start = System.nanoTime();
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    int exit = process.waitFor();
    double seconds = (System.nanoTime() - start) / 1e9;
    long cpuAtIngestEnd = quarry.cpuNanos();
    // the client's CPU: the one child of this JVM that ended meanwhile (the server still runs)
    long childrenCpuAtEnd = QuarryProcess.childrenCpuNanos();
    double clientCpuSeconds =
        childrenCpuAtStart < 0 || childrenCpuAtEnd < 0
            ? -1
            : (childrenCpuAtEnd - childrenCpuAtStart) / 1e9;
    if (exit != 0) {
      throw new IOException("quarry ingest exited with " + exit + "; see " + log);
    }
    QuarryClient client = quarry.client();
    long visible = 0;
    // two minutes at most without one more event searchable (a loaded machine is slow, not stuck)
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (visible < events && System.nanoTime() < deadline) {
      SearchResults count = client.search("index=main | stats count", "0", null);
      long now = Long.parseLong(count.rows().getFirst().get("count"));
      if (now > visible) {
        deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
      }
      visible = now;
      if (visible < events) {
        Thread.sleep(200);
      }
    }
    double visibleSeconds = (System.nanoTime() - start) / 1e9;
    if (visible != events) {
      throw new IOException(
          "index main holds "
              + visible
              + " events, expected "
              + events
              + " (no more became searchable in the last two minutes)");
    }
    long visibleAt = System.nanoTime();
    double compactSeconds = untilCompact(quarry, "main", start);
    long cpuAtCompact = quarry.cpuNanos();
    // let the periodic commit trim the write-ahead log before storage is measured
    Thread.sleep(Math.max(0, 12_000 - (System.nanoTime() - visibleAt) / 1_000_000));
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("events", events);
    result.put("bytes", rawBytes);
    result.put("seconds", seconds);
    result.put("mbPerSecond", rawBytes / 1e6 / seconds);
    result.put("eventsPerSecond", events / seconds);
    result.put("secondsUntilSearchable", visibleSeconds);
    // the deferred compaction's work is not hidden: the server's CPU in the ingest, and after it
    // until the index is compact
    result.put("secondsUntilCompact", compactSeconds);
    result.put("serverCpuSecondsInIngest", (cpuAtIngestEnd - cpuAtStart) / 1e9);
    result.put("clientCpuSeconds", clientCpuSeconds);
    result.put("serverCpuSecondsAfterIngestUntilCompact", (cpuAtCompact - cpuAtIngestEnd) / 1e9);
    out.printf(
        "quarry server CPU: %.1f s in the ingest, %.1f s after it until compact (compact after"
            + " %.1f s); quarry ingest client CPU: %.2f s%n",
        (cpuAtIngestEnd - cpuAtStart) / 1e9,
        (cpuAtCompact - cpuAtIngestEnd) / 1e9,
        compactSeconds,
        clientCpuSeconds);
    out.printf(
        "quarry ingest: %,d events, %,d bytes in %.1f s = %.1f MB/s, %,.0f events/s"
            + " (all searchable after %.1f s)%n",
        events, rawBytes, seconds, rawBytes / 1e6 / seconds, events / seconds, visibleSeconds);
    return result;
  }

  /**
   * Waits until index {@code name} is compact — the server says no compaction runs and none is due
   * (fast bytes under the idle minimum wait for the roll; at once when compaction is inline) — for
   * as long as the server makes progress ({@link CompactionWait}); returns the seconds since {@code
   * start}.
   *
   * @throws IOException when the server lists no such index, or it does not get compact (no figure
   *     is reported for a compaction that did not end): the message says what it waited for
   */
  private double untilCompact(QuarryProcess quarry, String name, long start) throws Exception {
    return new CompactionWait(
            () -> quarry.compaction(name),
            quarry::cpuNanos,
            idle,
            CompactionWait.STALL,
            CompactionWait.BOUND,
            500)
        .await(name, start);
  }
}
