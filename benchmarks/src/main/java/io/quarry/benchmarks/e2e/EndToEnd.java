package io.quarry.benchmarks.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.quarry.benchmarks.data.AccessLogGenerator;
import io.quarry.client.QuarryClient;
import io.quarry.client.SearchResults;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The end-to-end harness: generates the reference access log, starts Quarry on a fresh data
 * directory, measures ingest through HEC {@code /raw} and {@code quarry ingest}, runs the {@link
 * QuerySuite} on Quarry and on DuckDB in the same run, then a concurrency run on Quarry alone, and
 * reports a table on the console and a JSON file. See {@code benchmarks/README.md}.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Quarry end to end against DuckDB on the reference access log.")
public final class EndToEnd implements Callable<Integer> {
  @Option(
      names = "--events",
      defaultValue = "10000000",
      description = "Lines of the reference dataset (default ${DEFAULT-VALUE}).")
  long events;

  @Option(names = "--seed", defaultValue = "42", description = "Dataset seed.")
  long seed;

  @Option(
      names = "--work-dir",
      defaultValue = "benchmarks/target/e2e",
      description = "Dataset, data directories and results (default ${DEFAULT-VALUE}).")
  Path workDir;

  @Option(names = "--runs", defaultValue = "5", description = "Measured runs per query.")
  int runs;

  @Option(
      names = "--warmup",
      defaultValue = "2",
      description = "Warm-up runs per query (at least).")
  int warmup;

  @Option(
      names = "--warmup-seconds",
      defaultValue = "3",
      description =
          "Warm-up time per query: it runs again until both this and --warmup are reached, so a"
              + " query's first timed run finds the code paths compiled as on a server that has"
              + " been serving for a while (its first, cold run is reported as firstMs).")
  double warmupSeconds;

  @Option(
      names = "--threads",
      description = "DuckDB threads (default: the cores, like Quarry's search pool).")
  Integer threads;

  @Option(names = "--heap", defaultValue = "4g", description = "Quarry's heap (-Xmx).")
  String heap;

  @Option(
      names = "--hec-events",
      defaultValue = "200000",
      description = "Lines sent through HEC /raw for the HEC ingest figure (into index hec).")
  int hecEvents;

  @Option(names = "--hec-connections", defaultValue = "4", description = "Concurrent HEC requests.")
  int hecConnections;

  @Option(
      names = "--concurrency",
      split = ",",
      defaultValue = "1,4,20",
      description = "Concurrent searches per level of the concurrency run (0: skip).")
  List<Integer> concurrency;

  @Option(
      names = "--concurrency-queries",
      defaultValue = "40",
      description = "Searches per level of the concurrency run.")
  int concurrencyQueries;

  @Option(
      names = "--reuse-index",
      description =
          "Keep the index a previous run left in <work-dir>/data when it holds this dataset: no"
              + " ingest (and no ingest figures), the queries run at once. For iterating on search"
              + " speed; a full run ingests afresh.")
  boolean reuseIndex;

  @Option(
      names = "--victorialogs",
      description =
          "A VictoriaLogs binary to race as well (benchmarks/victorialogs/build.sh builds v1.110.0"
              + " from the Go module proxy): after Quarry, it gets the same lines as JSON with"
              + " their fields split out, over 2 connections in 8 MiB bodies, then the suite in"
              + " LogsQL.")
  Path victoriaLogs;

  @Option(
      names = "--victorialogs-fields",
      description =
          "The fields VictoriaLogs gets split out beside each line: INDEX (the default: the four"
              + " Quarry extracts at index time, so both store the same) or ALL (every field"
              + " DuckDB's table holds, as a parsing shipper sends them).")
  VictoriaLogsLines.Fields victoriaLogsFields = VictoriaLogsLines.Fields.INDEX;

  @Option(names = "--skip-duckdb", description = "Run Quarry only.")
  boolean skipDuckDb;

  @Option(
      names = "--query",
      description =
          "Run only the queries whose name contains this text (or one of several, separated by"
              + " commas).")
  String onlyQuery;

  @Option(
      names = "--profile",
      description =
          "Run Quarry's server under async-profiler (CPU time, native frames included) and write"
              + " its collapsed stacks to <work-dir>/profile-collapsed.txt when it stops. Covers"
              + " the whole run (ingest too): pair with --query.")
  boolean profile;

  @Option(
      names = "--format",
      description =
          "How the indexes store events: blocks (the default, as the server's: a document per"
              + " block of events, issue 23) or events (a document per event), to compare the two"
              + " layouts run by run.")
  String format = "blocks";

  @Option(
      names = "--block-events",
      description =
          "The most events one block holds (the server's storage.blockEvents; default: the"
              + " server's), to compare block sizes run by run.")
  Integer blockEvents;

  @Option(
      names = "--journal-compression",
      description =
          "How new journal blocks are compressed (the server's storage.journalCompression: zstd,"
              + " the default, lz4, zstd-lz4 — zstd for fast segments, lz4hc for compact merges —"
              + " or none), to weigh decode CPU against bytes stored. Compact merges are those of"
              + " 128 MiB or more; -Dquarry.storage.journalCompactMergeBytes=<bytes> lowers that"
              + " (a 1M index then holds compact blocks as a 10M one does).")
  String journalCompression;

  @Option(
      names = "--indexed-sessions",
      description =
          "Quarry's access_combined also extracts JSESSIONID at index time (as DuckDB's load does):"
              + " sessions_range_indexed runs instead of sessions_range. Its own run, since the"
              + " extra field changes the ingest and the index every other query reads.")
  boolean indexedSessions;

  private final PrintStream out = System.out;

  public static void main(String[] args) {
    System.exit(new CommandLine(new EndToEnd()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    int duckThreads = threads != null ? threads : cores;
    Files.createDirectories(workDir);
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("startedAt", Instant.now().toString());
    report.put("machine", machine(cores));
    report.put("commit", gitCommit());
    report.put("events", events);
    report.put("seed", seed);
    report.put("runs", runs);
    report.put("warmup", warmup);
    report.put("format", format);
    report.put("blockEvents", blockEvents);
    report.put("journalCompression", journalCompression);
    report.put("indexedSessions", indexedSessions);

    Path dataset = dataset();
    long rawBytes = Files.size(dataset);
    report.put("datasetBytes", rawBytes);

    List<Query> queries =
        QuerySuite.queries(indexedSessions).stream()
            .filter(
                q ->
                    onlyQuery == null
                        || java.util.Arrays.stream(onlyQuery.split(","))
                            .anyMatch(q.name()::contains))
            .toList();
    Map<String, Object> ingest = new LinkedHashMap<>();
    report.put("ingest", ingest);
    Map<String, Map<String, Object>> results = new LinkedHashMap<>();
    report.put("queries", results);

    // what a finished ingest leaves beside the index, so that --reuse-index knows what it holds
    Path ingested = workDir.resolve("data-ingested.txt");
    String ingestedWhat =
        dataset.getFileName()
            + " "
            + rawBytes
            + " "
            + format
            + (blockEvents == null ? "" : " " + blockEvents)
            + (journalCompression == null ? "" : " " + journalCompression)
            + (indexedSessions ? " indexed-sessions" : "");
    boolean reuse =
        reuseIndex && Files.exists(ingested) && Files.readString(ingested).equals(ingestedWhat);
    if (!reuse) {
      Files.deleteIfExists(ingested);
    }
    try (QuarryProcess quarry =
        QuarryProcess.start(
            workDir,
            heap,
            profile,
            reuse,
            format,
            blockEvents,
            journalCompression,
            indexedSessions)) {
      out.printf("Quarry at %s (heap %s), data in %s%n", quarry.uri(), heap, quarry.dataDir());
      if (reuse) {
        out.printf("reusing the index of %s from a previous run: no ingest%n", dataset);
        ingest.put("reusedIndex", true);
      } else {
        ingest.put("hecRaw", hecRaw(quarry, dataset));
        ingest.put("quarryIngest", quarryIngest(quarry, dataset, rawBytes));
        ingest.put("secondsUntilSettled", settle(() -> quarry.indexBytes("main")));
        Files.writeString(ingested, ingestedWhat);
      }
      long indexBytes = quarry.indexBytes("main");
      ingest.put("quarryIndexBytes", indexBytes);
      ingest.put("quarryBytesPerRawByte", (double) indexBytes / rawBytes);
      out.printf(
          "Quarry storage: %,d bytes for %,d raw = %.3f per raw byte%n",
          indexBytes, rawBytes, (double) indexBytes / rawBytes);

      QuarryClient client = quarry.client();
      for (Query query : queries) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("spl", query.spl());
        entry.put("sql", query.sql());
        entry.put("note", query.note());
        Timings timings = new Timings();
        Answer[] answer = {null};
        measure(
            "quarry " + query.name(),
            timings,
            () -> answer[0] = Answer.of(client.search(query.spl(), "0", null)),
            quarry::cpuNanos);
        entry.put("quarry", summary(timings, answer[0]));
        results.put(query.name(), entry);
      }
      if (concurrency != null && !concurrency.isEmpty()) {
        report.put("concurrency", concurrencyRun(client, queries));
      }
    }

    if (victoriaLogs != null) {
      ingest.put(
          "victorialogs",
          new VictoriaLogsRun(this, victoriaLogs, victoriaLogsFields, workDir)
              .run(dataset, rawBytes, queries, results));
    }

    if (!skipDuckDb) {
      try (DuckDbEngine duck = new DuckDbEngine(workDir.resolve("duck.db"), duckThreads)) {
        report.put("duckdbVersion", duck.version());
        report.put("duckdbThreads", duckThreads);
        out.printf("DuckDB %s, %d threads: loading %s%n", duck.version(), duckThreads, dataset);
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
        ingest.put("duckdbLoad", load);
        out.printf(
            "DuckDB load: %,d rows in %.1f s = %.1f MB/s; %,d bytes = %.3f per raw byte%n",
            loaded, seconds, rawBytes / 1e6 / seconds, duckBytes, (double) duckBytes / rawBytes);
        for (Query query : queries) {
          Timings timings = new Timings();
          Answer[] answer = {null};
          measure("duckdb " + query.name(), timings, () -> answer[0] = duck.run(query.sql()));
          results.get(query.name()).put("duckdb", summary(timings, answer[0]));
        }
      }
    }

    report.put("finishedAt", Instant.now().toString());
    printTable(results, report);
    Path json = workDir.resolve("results-" + Instant.now().toEpochMilli() + ".json");
    ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    mapper.writeValue(json.toFile(), report);
    Files.copy(
        json, workDir.resolve("latest.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    out.println("JSON: " + json);
    return 0;
  }

  private Path dataset() throws IOException {
    Path dataset = workDir.resolve("access-" + events + "-seed" + seed + ".log");
    if (Files.exists(dataset)) {
      out.printf("dataset %s (%,d bytes) exists%n", dataset, Files.size(dataset));
      return dataset;
    }
    out.printf("generating %,d lines into %s …%n", events, dataset);
    long start = System.nanoTime();
    new AccessLogGenerator(events, seed).write(dataset, Runtime.getRuntime().availableProcessors());
    out.printf(
        "generated %,d bytes in %.1f s%n", Files.size(dataset), (System.nanoTime() - start) / 1e9);
    return dataset;
  }

  /** The first {@code hecEvents} lines through HEC /raw in 1 MiB bodies into index hec. */
  private Map<String, Object> hecRaw(QuarryProcess quarry, Path dataset) throws Exception {
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
    return result;
  }

  /** {@code quarry ingest} of the whole dataset into main, then until a search sees every event. */
  private Map<String, Object> quarryIngest(QuarryProcess quarry, Path dataset, long rawBytes)
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
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (visible < events && System.nanoTime() < deadline) {
      SearchResults count = client.search("index=main | stats count", "0", null);
      visible = Long.parseLong(count.rows().getFirst().get("count"));
      if (visible < events) {
        Thread.sleep(200);
      }
    }
    double visibleSeconds = (System.nanoTime() - start) / 1e9;
    if (visible != events) {
      throw new IOException("index main holds " + visible + " events, expected " + events);
    }
    long visibleAt = System.nanoTime();
    double compactSeconds = untilCompact(client, start);
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
   * Waits until index main is compact — the server says no compaction runs and none is due (fast
   * bytes under the idle minimum wait for the roll; at once when compaction is inline) — five
   * minutes at most; returns the seconds since {@code start}.
   *
   * @throws IOException when the server lists no index main, or main is not compact in five minutes
   *     (no figure is reported for a compaction that did not end)
   */
  private double untilCompact(QuarryClient client, long start) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (true) {
      io.quarry.client.IndexSummary main =
          client.indexes().stream()
              .filter(index -> index.name().equals("main"))
              .findFirst()
              .orElseThrow(() -> new IOException("the server lists no index main"));
      if (main.compacted()) {
        return (System.nanoTime() - start) / 1e9;
      }
      if (System.nanoTime() >= deadline) {
        throw new IOException("index main is not compact after five minutes: " + main);
      }
      Thread.sleep(500);
    }
  }

  /**
   * Waits until background merges are done — the index's size on disk unchanged over three polls
   * two seconds apart, three minutes at most — so storage is measured settled and the queries do
   * not share the cores with merging; returns the seconds waited.
   */
  double settle(StorageBytes storage) throws IOException, InterruptedException {
    long start = System.nanoTime();
    long deadline = start + TimeUnit.MINUTES.toNanos(3);
    long last = -1;
    int unchanged = 0;
    while (unchanged < 3 && System.nanoTime() < deadline) {
      Thread.sleep(2_000);
      long bytes = storage.bytes();
      unchanged = bytes == last ? unchanged + 1 : 0;
      last = bytes;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    out.printf(
        "index settled (no merge running) after %.1f s more%s%n",
        seconds, unchanged < 3 ? " — gave up waiting, merges may still run" : "");
    return seconds;
  }

  /** The bytes an engine holds on disk now. */
  interface StorageBytes {
    long bytes() throws IOException;
  }

  interface Run {
    void run() throws Exception;
  }

  void measure(String name, Timings timings, Run run) throws Exception {
    measure(name, timings, run, null);
  }

  /**
   * As {@link #measure(String, Timings, Run)}, and with {@code cpuNanos} (a process's CPU so far,
   * -1 when unknown) the process's CPU per measured run as well: for a server's work per query,
   * which the wall time hides when other processes share the cores.
   */
  void measure(String name, Timings timings, Run run, java.util.function.LongSupplier cpuNanos)
      throws Exception {
    long warmupStarted = System.nanoTime();
    long warmupNanos = (long) (warmupSeconds * 1e9);
    for (int i = 0; i < warmup || System.nanoTime() - warmupStarted < warmupNanos; i++) {
      long start = System.nanoTime();
      run.run();
      timings.warmedUp(System.nanoTime() - start);
    }
    long cpuBefore = cpuNanos == null ? -1 : cpuNanos.getAsLong();
    for (int i = 0; i < runs; i++) {
      long start = System.nanoTime();
      run.run();
      timings.add(System.nanoTime() - start);
    }
    long cpuAfter = cpuNanos == null ? -1 : cpuNanos.getAsLong();
    if (cpuBefore >= 0 && cpuAfter >= 0 && runs > 0) {
      timings.cpuPerRun((cpuAfter - cpuBefore) / runs);
    }
    out.printf(
        Locale.ROOT,
        "  %-40s median %10.1f ms  p95 %10.1f ms%s%n",
        name,
        timings.median(),
        timings.p95(),
        Double.isNaN(timings.cpuMillis())
            ? ""
            : String.format(Locale.ROOT, "  cpu %8.1f ms/run", timings.cpuMillis()));
  }

  static Map<String, Object> summary(Timings timings, Answer answer) {
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("medianMs", timings.median());
    summary.put("p95Ms", timings.p95());
    summary.put("rows", answer.rows());
    summary.put("countSum", answer.countSum());
    summary.put("runsMs", timings.values());
    summary.put("firstMs", Double.isNaN(timings.firstMillis()) ? null : timings.firstMillis());
    summary.put("warmupRuns", timings.warmupRuns());
    if (!Double.isNaN(timings.cpuMillis())) {
      summary.put("serverCpuMs", timings.cpuMillis());
    }
    return summary;
  }

  /** Mixed searches from the suite at each concurrency level: throughput and latency. */
  private List<Map<String, Object>> concurrencyRun(QuarryClient client, List<Query> queries)
      throws Exception {
    List<Map<String, Object>> levels = new ArrayList<>();
    for (int level : concurrency) {
      if (level <= 0) {
        continue;
      }
      int total = Math.max(concurrencyQueries, level);
      AtomicInteger next = new AtomicInteger();
      List<Timings> perThread = new ArrayList<>();
      ExecutorService pool = Executors.newFixedThreadPool(level);
      long start = System.nanoTime();
      try {
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < level; t++) {
          Timings timings = new Timings();
          perThread.add(timings);
          workers.add(
              pool.submit(
                  () -> {
                    for (int i = next.getAndIncrement(); i < total; i = next.getAndIncrement()) {
                      Query query = queries.get(i % queries.size());
                      long begin = System.nanoTime();
                      client.search(query.spl(), "0", null);
                      timings.add(System.nanoTime() - begin);
                    }
                    return null;
                  }));
        }
        for (Future<?> worker : workers) {
          worker.get();
        }
      } finally {
        pool.shutdownNow();
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Timings all = new Timings();
      for (Timings timings : perThread) {
        for (double millis : timings.values()) {
          all.add((long) (millis * 1e6));
        }
      }
      Map<String, Object> result = new LinkedHashMap<>();
      result.put("concurrency", level);
      result.put("searches", total);
      result.put("seconds", seconds);
      result.put("searchesPerSecond", total / seconds);
      result.put("medianMs", all.median());
      result.put("p99Ms", all.p99());
      levels.add(result);
      out.printf(
          Locale.ROOT,
          "  concurrency %3d: %d searches in %.1f s = %.2f/s, median %.0f ms, p99 %.0f ms%n",
          level,
          total,
          seconds,
          total / seconds,
          all.median(),
          all.p99());
    }
    return levels;
  }

  @SuppressWarnings("unchecked")
  private void printTable(Map<String, Map<String, Object>> results, Map<String, Object> report) {
    boolean victoria =
        results.values().stream().anyMatch(entry -> entry.containsKey("victorialogs"));
    out.println();
    out.printf(
        "## %,d events (%s, commit %s), %d measured runs after %d warm-up%n%n",
        events, report.get("machine"), report.get("commit"), runs, warmup);
    out.println(
        "| query | Quarry median ms | Quarry p95 ms | DuckDB median ms | DuckDB p95 ms |"
            + " Quarry/DuckDB | rows Q/D | same answer |"
            + (victoria
                ? " VictoriaLogs median ms | Quarry/VictoriaLogs | same answer Q/V |"
                : ""));
    out.println("|---|---:|---:|---:|---:|---:|---|---|" + (victoria ? "---:|---:|---|" : ""));
    for (Map.Entry<String, Map<String, Object>> entry : results.entrySet()) {
      Map<String, Object> quarry = (Map<String, Object>) entry.getValue().get("quarry");
      Map<String, Object> duck = (Map<String, Object>) entry.getValue().get("duckdb");
      Map<String, Object> vl = (Map<String, Object>) entry.getValue().get("victorialogs");
      double q = (double) quarry.get("medianMs");
      String ratio = duck == null ? "–" : ratio(q / (double) duck.get("medianMs"));
      out.printf(
          Locale.ROOT,
          "| `%s` | %.1f | %.1f | %s | %s | %s | %s/%s | %s |%s%n",
          entry.getKey(),
          q,
          (double) quarry.get("p95Ms"),
          duck == null ? "–" : String.format(Locale.ROOT, "%.1f", (double) duck.get("medianMs")),
          duck == null ? "–" : String.format(Locale.ROOT, "%.1f", (double) duck.get("p95Ms")),
          ratio,
          quarry.get("rows"),
          duck == null ? "–" : duck.get("rows"),
          duck == null ? "–" : agreement(quarry, duck),
          !victoria
              ? ""
              : vl == null
                  ? " – | – | – |"
                  : String.format(
                      Locale.ROOT,
                      " %.1f | %s | %s |",
                      (double) vl.get("medianMs"),
                      ratio(q / (double) vl.get("medianMs")),
                      agreement(quarry, vl)));
    }
    out.println();
  }

  /** Quarry time over DuckDB time, with two significant digits below 10 (0.011×, 5.6×, 153×). */
  static String ratio(double ratio) {
    if (ratio >= 10) {
      return String.format(Locale.ROOT, "%.0f×", ratio);
    }
    return new java.math.BigDecimal(ratio)
            .round(new java.math.MathContext(2))
            .stripTrailingZeros()
            .toPlainString()
        + "×";
  }

  /**
   * Whether two engines gave the same answer, as far as the harness can tell: the same number of
   * rows and, where both have a {@code count} column, the same total.
   */
  static String agreement(Map<String, Object> quarry, Map<String, Object> duck) {
    boolean rows = quarry.get("rows").equals(duck.get("rows"));
    long quarrySum = (long) quarry.get("countSum");
    long duckSum = (long) duck.get("countSum");
    if (quarrySum < 0 || duckSum < 0) {
      return rows ? "rows" : "NO (rows)";
    }
    return rows && quarrySum == duckSum
        ? "rows, Σcount"
        : "NO (Σcount " + quarrySum + "/" + duckSum + ")";
  }

  /**
   * The checkout's commit (with {@code -dirty} when it has changes), so runs can be compared over
   * time; "unknown" outside a git checkout.
   */
  static String gitCommit() {
    try {
      Process git =
          new ProcessBuilder("git", "describe", "--always", "--dirty", "--abbrev=12")
              .redirectErrorStream(true)
              .start();
      String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      return git.waitFor() == 0 && !out.isEmpty() ? out : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  private static String machine(int cores) {
    return cores
        + " cores, "
        + Runtime.getRuntime().maxMemory() / (1 << 20)
        + " MiB harness heap, Java "
        + System.getProperty("java.version")
        + ", "
        + System.getProperty("os.name")
        + " "
        + System.getProperty("os.arch");
  }
}
