package io.quarry.benchmarks.e2e;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The harness's VictoriaLogs phase, run after Quarry has stopped so the two never share the cores:
 * the dataset as JSON lines ({@link VictoriaLogsLines}, made once, untimed), a fresh VictoriaLogs
 * fed them over HTTP as a shipper would (2 connections, 8 MiB bodies: the figures issue 23 quotes),
 * the suite in LogsQL with the same warm-up and runs as the other engines once its files stop
 * changing, and its bytes on disk after it has stopped.
 */
final class VictoriaLogsRun {
  private static final int CONNECTIONS = 2;
  private static final int BODY_BYTES = 8 << 20;

  private final Measurements measurements;
  private final Path binary;
  private final VictoriaLogsLines.Fields fields;
  private final Path workDir;
  private final PrintStream out = System.out;

  VictoriaLogsRun(
      Measurements measurements, Path binary, VictoriaLogsLines.Fields fields, Path workDir) {
    this.measurements = measurements;
    this.binary = binary;
    this.fields = fields;
    this.workDir = workDir;
  }

  /**
   * Ingests, measures and queries; puts each query's summary under {@code "victorialogs"} in its
   * entry of {@code results}; returns the ingest figures.
   */
  Map<String, Object> run(
      Path dataset, long rawBytes, List<Query> queries, Map<String, Map<String, Object>> results)
      throws Exception {
    Map<String, Object> ingest = new LinkedHashMap<>();
    String version = VictoriaLogsEngine.version(binary);
    ingest.put("version", version);
    ingest.put("fields", fields.name());
    out.printf(
        "VictoriaLogs %s: JSON lines of %s with %s fields split out (made once, untimed) …%n",
        version, dataset, fields);
    Path jsonLines = VictoriaLogsLines.of(dataset, fields);
    Path dataDir = workDir.resolve("victorialogs-data");
    try (VictoriaLogsEngine engine =
        VictoriaLogsEngine.start(binary, dataDir, workDir.resolve("victorialogs.log"))) {
      long start = System.nanoTime();
      long lines = engine.ingest(jsonLines, CONNECTIONS, BODY_BYTES);
      double seconds = (System.nanoTime() - start) / 1e9;
      long searchable = engine.awaitSearchable(lines);
      if (searchable != lines) {
        throw new IllegalStateException(
            "VictoriaLogs counts " + searchable + " lines of the " + lines + " sent");
      }
      ingest.put("secondsUntilSearchable", (System.nanoTime() - start) / 1e9);
      ingest.put("events", lines);
      ingest.put("seconds", seconds);
      ingest.put("mbPerSecond", rawBytes / 1e6 / seconds);
      ingest.put("eventsPerSecond", lines / seconds);
      out.printf(
          "VictoriaLogs ingest: %,d lines (%,d raw bytes) in %.1f s = %.1f MB/s of raw lines%n",
          lines, rawBytes, seconds, rawBytes / 1e6 / seconds);
      // its files change while it merges; the newest data is still in memory
      ingest.put(
          "secondsUntilSettled", measurements.settle(() -> VictoriaLogsEngine.bytes(dataDir)));
      for (Query query : queries) {
        Timings timings = new Timings();
        Answer[] answer = {null};
        measurements.measure(
            "victorialogs " + query.name(), timings, () -> answer[0] = engine.run(query.logsql()));
        results.get(query.name()).put("victorialogs", Measurements.summary(timings, answer[0]));
      }
    }
    // measured once it has stopped (a SIGTERM writes what it held in memory), as it would restart
    long bytes = VictoriaLogsEngine.bytes(dataDir);
    ingest.put("bytes", bytes);
    ingest.put("bytesPerRawByte", (double) bytes / rawBytes);
    out.printf(
        "VictoriaLogs storage: %,d bytes = %.3f per raw byte%n", bytes, (double) bytes / rawBytes);
    return ingest;
  }
}
