package io.quarry.benchmarks.e2e;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The harness's DuckDB phase, run after Quarry has stopped: the dataset loaded into a fresh DuckDB
 * file in process (its load time and bytes), then the suite in SQL with the same warm-up and runs
 * as the other engines.
 */
final class DuckDbRun {
  private final Measurements measurements;
  private final Path workDir;
  private final int threads;
  private final PrintStream out = System.out;

  DuckDbRun(Measurements measurements, Path workDir, int threads) {
    this.measurements = measurements;
    this.workDir = workDir;
    this.threads = threads;
  }

  /**
   * Loads, measures and queries; puts DuckDB's version and threads in {@code report}, each query's
   * summary under {@code "duckdb"} in its entry of {@code results}; returns the load figures.
   */
  Map<String, Object> run(
      Path dataset,
      long rawBytes,
      List<Query> queries,
      Map<String, Map<String, Object>> results,
      Map<String, Object> report)
      throws Exception {
    try (DuckDbEngine duck = new DuckDbEngine(workDir.resolve("duck.db"), threads)) {
      report.put("duckdbVersion", duck.version());
      report.put("duckdbThreads", threads);
      out.printf("DuckDB %s, %d threads: loading %s%n", duck.version(), threads, dataset);
      long start = System.nanoTime();
      long loaded = duck.load(dataset);
      double seconds = (System.nanoTime() - start) / 1e9;
      long duckBytes = duck.storageBytes();
      Map<String, Object> load = new LinkedHashMap<>();
      load.put("rows", loaded);
      load.put("seconds", seconds);
      load.put("mbPerSecond", rawBytes / 1e6 / seconds);
      load.put("bytes", duckBytes);
      load.put("bytesPerRawByte", (double) duckBytes / rawBytes);
      out.printf(
          "DuckDB load: %,d rows in %.1f s = %.1f MB/s; %,d bytes = %.3f per raw byte%n",
          loaded, seconds, rawBytes / 1e6 / seconds, duckBytes, (double) duckBytes / rawBytes);
      for (Query query : queries) {
        Timings timings = new Timings();
        Answer[] answer = {null};
        measurements.measure(
            "duckdb " + query.name(), timings, () -> answer[0] = duck.run(query.sql()));
        results.get(query.name()).put("duckdb", Measurements.summary(timings, answer[0]));
      }
      return load;
    }
  }
}
