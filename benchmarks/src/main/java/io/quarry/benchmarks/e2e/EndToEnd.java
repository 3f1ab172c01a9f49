package io.quarry.benchmarks.e2e;

import io.quarry.benchmarks.data.AccessLogGenerator;
import io.quarry.client.QuarryClient;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
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
      names = "--warmup-until-stable",
      description =
          "After --warmup and --warmup-seconds, warm each Quarry query on until the server's JIT"
              + " has settled (its compilation time, jvm_compilation_time_ms_total on /metrics,"
              + " grew by at most 5 ms in each of 2 runs in a row), up to --warmup-max runs; the"
              + " report says per query how many warm-up runs it took. Off by default, so runs"
              + " compare with earlier ones.")
  boolean warmupUntilStable;

  @Option(
      names = "--warmup-max",
      defaultValue = "50",
      description =
          "With --warmup-until-stable, no more warm-up runs for the JIT once a query had this many"
              + " (--warmup-seconds may still make more).")
  int warmupMax;

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
          "Keep the index a previous run left in <work-dir>/data when it holds this dataset"
              + " ingested under the same layout options (--format, --block-events,"
              + " --journal-compression, --indexed-sessions, every -Dquarry.storage.* property, as"
              + " <work-dir>/data-ingested.txt records them): no ingest (and no ingest figures),"
              + " the queries run at once; otherwise it says what differs and ingests afresh. For"
              + " iterating on search speed; a full run ingests afresh.")
  boolean reuseIndex;

  @Option(
      names = "--reuse-index-as-is",
      description =
          "With --reuse-index: keep the index a previous run left even where its settings differ"
              + " from this run's (another jar's defaults, another layout), as long as it holds"
              + " this dataset; says what differs and the report records it. For one jar's"
              + " searches on a store another jar built (an A/B of code on one store).")
  boolean reuseIndexAsIs;

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
          "How new journal blocks are compressed (the server's storage.journalCompression:"
              + " lz4-zstd, the default — lz4 for fast segments, zstd for compact merges —,"
              + " none-zstd — fast segments uncompressed, zstd for compact merges —, zstd, lz4,"
              + " zstd-lz4 — zstd for fast segments, lz4hc for compact merges — or none), to"
              + " weigh decode CPU against bytes stored. Compact merges are those of"
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
    report.put("machine", Report.machine(cores));
    report.put("commit", Report.gitCommit());
    report.put("events", events);
    report.put("seed", seed);
    report.put("runs", runs);
    report.put("warmup", warmup);
    report.put("warmupUntilStable", warmupUntilStable ? warmupMax : null);
    report.put("format", format);
    report.put("blockEvents", blockEvents);
    report.put("journalCompression", journalCompression);
    report.put("indexedSessions", indexedSessions);

    Measurements measurements =
        new Measurements(warmup, warmupSeconds, runs, warmupUntilStable ? warmupMax : 0);
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

    // what a finished ingest leaves beside the index, so that --reuse-index knows what it holds:
    // the store's settings as this build's server resolves them, not as given
    IngestSettings settings =
        IngestSettings.resolve(
            ServerConfigFile.text(
                1,
                workDir.resolve("data"),
                format,
                blockEvents,
                journalCompression,
                indexedSessions),
            "main",
            workDir);
    report.put("quarrySettings", settings.report());
    IngestRecord ingested =
        IngestRecord.of(dataset, rawBytes, settings, indexedSessions, System.getProperties());
    boolean reuse = false;
    if (reuseIndex) {
      List<String> differences = ingested.differences(workDir);
      reuse = differences.isEmpty();
      if (!reuse && reuseIndexAsIs && ingested.sameDataset(workDir)) {
        reuse = true;
        report.put("reusedIndexDiffers", differences);
        out.printf(
            "--reuse-index-as-is: searching the index in %s although it is not this run's (%s)%n",
            workDir.resolve("data"), String.join("; ", differences));
      } else if (!reuse) {
        out.printf(
            "--reuse-index: the index in %s is not this run's (%s): ingesting afresh%n",
            workDir.resolve("data"), String.join("; ", differences));
      }
    }
    if (!reuse) {
      IngestRecord.forget(workDir);
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
        // what the server burns doing nothing, on this machine now: the settle's CPU bound
        IdleCpu idle = IdleCpu.measure(quarry::cpuNanos, IdleCpu.POLLS, QuarrySettle.POLL_MILLIS);
        out.printf("Quarry idle before the ingest: %s%n", idle.describe());
        QuarryIngest drivers = new QuarryIngest(workDir, events, hecEvents, hecConnections, idle);
        ingest.put("hecRaw", drivers.hecRaw(quarry, dataset));
        ingest.put("quarryIngest", drivers.quarryIngest(quarry, dataset, rawBytes));
        Map<String, Object> settled = new LinkedHashMap<>();
        ingest.put(
            "secondsUntilSettled",
            new QuarrySettle(idle)
                .await(
                    () -> quarry.indexBytes("main"),
                    () -> quarry.compaction("main"),
                    quarry::cpuNanos,
                    settled));
        ingest.put("quarrySettle", settled);
        String held = quarry.storeShape("main").layouts();
        if (!held.equals(settings.layout())) {
          out.printf(
              "the store's buckets are %s, not %s as this build makes new ones: recorded as they"
                  + " are%n",
              held, settings.layout());
        }
        ingested.holding(held).write(workDir);
      }
      StoreShape shape = quarry.storeShape("main");
      report.put("quarryStore", shape.report());
      report.put("quarryJournal", shape.journal());
      out.printf("Quarry store (index main): %s%n", shape.describe());
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
        measurements.measure(
            "quarry " + query.name(),
            timings,
            () -> answer[0] = Answer.of(client.search(query.spl(), "0", null)),
            quarry::cpuNanos,
            quarry::compilationMillis,
            quarry::searchCpuNanos);
        entry.put("quarry", Measurements.summary(timings, answer[0]));
        results.put(query.name(), entry);
      }
      if (concurrency != null && !concurrency.isEmpty()) {
        report.put(
            "concurrency",
            measurements.concurrencyRun(client, queries, concurrency, concurrencyQueries));
      }
    }

    if (victoriaLogs != null) {
      ingest.put(
          "victorialogs",
          new VictoriaLogsRun(measurements, victoriaLogs, victoriaLogsFields, workDir)
              .run(dataset, rawBytes, queries, results));
    }

    if (!skipDuckDb) {
      ingest.put(
          "duckdbLoad",
          new DuckDbRun(measurements, workDir, duckThreads)
              .run(dataset, rawBytes, queries, results, report));
    }

    report.put("finishedAt", Instant.now().toString());
    Report output = new Report(events, runs, warmup);
    output.printTable(results, report);
    output.writeJson(workDir, report);
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
}
