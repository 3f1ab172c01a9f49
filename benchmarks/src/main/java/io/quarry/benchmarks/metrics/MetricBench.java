package io.quarry.benchmarks.metrics;

import io.quarry.codecs.metricstore.MetricBatch;
import io.quarry.codecs.metricstore.MetricIndexOptions;
import io.quarry.codecs.metricstore.MetricIndexStore;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.HecToken;
import io.quarry.server.config.QuarryConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code ./quarry metric-bench [--hosts 10] [--metrics 100] [--points 10000] [--threads 2] [--runs
 * 5] [--warmup 0] [--data <dir>] [--events true] [--queries-only false [--query <spl>]]}: the
 * numbers issue 25 asks for, on a generated dataset ({@link MetricDataset}). {@code --warmup N}
 * runs each query N times, untimed, before its timed runs (a long-running server has compiled its
 * search path; a fresh JVM's first runs time the JIT as much as the search).
 *
 * <ol>
 *   <li>store ingest: {@code MetricIndexStore.add} of one time step of every series per call (hosts
 *       × metrics points, through the log and its fsync) from {@code threads} threads;
 *   <li>HEC ingest: a Quarry server in this JVM, {@code /services/collector/event} bodies of
 *       multi-metric envelopes (one per host and time step, every metric in it; bodies built before
 *       the clock starts), {@code threads} senders;
 *   <li>bytes per point of the warm buckets once rolled (series and chunk files; the log is gone);
 *   <li>query times over the export endpoint, median of {@code runs}: {@code mstats avg(cpu.*)
 *       where index=m host=h1 span=1m}, one series' raw points for an hour ({@code mpreview}), and
 *       a whole-index {@code mstats count(_value)}.
 * </ol>
 */
public final class MetricBench {
  private static int warmup; // untimed runs of each query before its timed ones (--warmup)

  private MetricBench() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new java.util.HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    int hosts = Integer.parseInt(options.getOrDefault("hosts", "10"));
    int metrics = Integer.parseInt(options.getOrDefault("metrics", "100"));
    int points = Integer.parseInt(options.getOrDefault("points", "10000"));
    int threads = Integer.parseInt(options.getOrDefault("threads", "2"));
    int runs = Integer.parseInt(options.getOrDefault("runs", "5"));
    warmup = Integer.parseInt(options.getOrDefault("warmup", "0"));
    Path data =
        options.containsKey("data")
            ? Path.of(options.get("data"))
            : Files.createTempDirectory("quarry-metric-bench");
    boolean events = Boolean.parseBoolean(options.getOrDefault("events", "true"));
    if (Boolean.parseBoolean(options.getOrDefault("queries-only", "false"))) {
      // the server data of an earlier run with the same --data: its queries again, no ingest
      QuarryServer server = start(data.resolve("server"));
      try {
        List<String> queries =
            options.containsKey("query")
                ? List.of(options.get("query"))
                : queries(new MetricDataset(hosts, metrics, points, 0));
        for (String query : queries) {
          System.out.println(timeQuery(server, query, runs).line());
        }
      } finally {
        server.close();
      }
      return;
    }
    for (String line : run(data, hosts, metrics, points, threads, runs, events)) {
      System.out.println(line);
    }
  }

  /** The queries timed over the metric index. */
  private static List<String> queries(MetricDataset dataset) {
    return List.of(
        "| mstats avg(cpu.*) where index=m host=h1 span=1m",
        "| mpreview target_per_timeseries=0 index=m host=h1 metric_name="
            + dataset.metric(0)
            + " earliest=-1h",
        "| mstats count(_value) AS n where index=m");
  }

  /** Runs every part; returns the report's lines. */
  static List<String> run(
      Path data, int hosts, int metrics, int points, int threads, int runs, boolean events)
      throws Exception {
    List<String> report = new ArrayList<>();
    long end = System.currentTimeMillis() / 1000 / 60 * 60;
    MetricDataset dataset = new MetricDataset(hosts, metrics, points, end);
    report.add(
        String.format(
            "dataset: %d hosts x %d metrics x %d points = %,d points (%d series), 10 s interval",
            hosts, metrics, points, dataset.pointCount(), hosts * metrics));
    report.add(storeIngest(data.resolve("store"), dataset, threads));

    QuarryServer server = start(data.resolve("server"));
    try {
      report.add(
          HecIngest.metrics(server, new MetricDataset(hosts, metrics, points, end), threads));
      long before = System.nanoTime();
      server.close();
      server = start(data.resolve("server")); // replays the log
      report.add(
          String.format(
              "restart with the hot bucket's log replayed: %.1f s",
              (System.nanoTime() - before) / 1e9));
      long pointsStored = dataset.pointCount();
      server.close();
      long rollStart = System.nanoTime();
      rollAll(data.resolve("server"));
      double rollSeconds = (System.nanoTime() - rollStart) / 1e9;
      server = start(data.resolve("server"));
      report.add(
          String.format(
              "hot bucket rolled to warm (log replayed, files written): %.1f s", rollSeconds));
      long bytes = directorySize(data.resolve("server/indexes/m/metric-buckets"));
      report.add(
          String.format(
              "on disk: %,d bytes in warm buckets = %.3f bytes per point",
              bytes, bytes / (double) pointsStored));
      for (String query : queries(dataset)) {
        report.add(timeQuery(server, query, runs).line());
      }
      if (events) {
        report.add(
            HecIngest.events(server, new MetricDataset(hosts, metrics, points, end), threads));
        server.close(); // commits the event index
        server = start(data.resolve("server"));
        long eventBytes = directorySize(data.resolve("server/indexes/e/buckets"));
        report.add(
            String.format(
                "the same points as events (one JSON event per host and time step): %,d bytes on"
                    + " disk = %.2f bytes per point (metric index: %.3f)",
                eventBytes, eventBytes / (double) pointsStored, bytes / (double) pointsStored));
        String metric = dataset.metric(0);
        Timing metricTime =
            timeQuery(server, "| mstats avg(" + metric + ") where index=m host=h1 span=1m", runs);
        Timing eventTime =
            timeQuery(server, "index=e host=h1 | timechart span=1m avg(" + metric + ")", runs);
        report.add(metricTime.line());
        report.add(eventTime.line());
        report.add(
            String.format(
                "events / metrics, the same question: %.0fx slower (medians)",
                eventTime.median() / metricTime.median()));
      }
    } finally {
      server.close();
    }
    return report;
  }

  private static QuarryServer start(Path data) throws Exception {
    return QuarryServer.start(
        QuarryConfig.builder()
            .put("server.port", 0)
            .put("server.maxRequestBytes", 256L << 20)
            .put("server.workerThreads", 4)
            .put("dataDir", data.toString())
            .put("indexes", List.of("main", "m", "e"))
            .put("auth.adminPassword", "bench-pw")
            .add("hec.tokens", new HecToken("bench", "bench", "m", List.of("m", "e"), null))
            .put("storage.commitIntervalSeconds", 10)
            .put("storage.indexes.m.datatype", "metric")
            .put("storage.indexes.m.maxBucketPoints", 50_000_000L)
            .build(),
        Clock.systemUTC());
  }

  /** Rolls the metric index's hot bucket, opening its store alone while the server is down. */
  private static void rollAll(Path data) throws IOException {
    try (MetricIndexStore store =
        new MetricIndexStore(
            "m", data.resolve("indexes/m"), MetricIndexOptions.DEFAULTS, Clock.systemUTC())) {
      store.roll();
    }
  }

  private static String storeIngest(Path directory, MetricDataset dataset, int threads)
      throws Exception {
    SeriesKey[][] keys = dataset.keys();
    long started;
    long points;
    try (MetricIndexStore store =
        new MetricIndexStore(
            "m",
            directory,
            MetricIndexOptions.DEFAULTS.withMaxBucketPoints(Long.MAX_VALUE),
            Clock.systemUTC())) {
      AtomicInteger next = new AtomicInteger();
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      started = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      Object generator = new Object();
      int stepsPerCall = Math.max(1, 10_000 / (dataset.hosts * dataset.metrics));
      for (int t = 0; t < threads; t++) {
        done.add(
            pool.submit(
                () -> {
                  while (true) {
                    MetricBatch batch =
                        new MetricBatch(stepsPerCall * keys.length * keys[0].length);
                    for (SeriesKey[] host : keys) {
                      for (SeriesKey key : host) {
                        batch.addSeries(key);
                      }
                    }
                    synchronized (generator) { // the dataset's values come in time order
                      for (int s = 0; s < stepsPerCall; s++) {
                        int i = next.getAndIncrement();
                        if (i >= dataset.points) {
                          break;
                        }
                        dataset.step(i, batch);
                      }
                    }
                    if (batch.isEmpty()) {
                      return null;
                    }
                    store.add(batch);
                  }
                }));
      }
      for (Future<?> future : done) {
        future.get();
      }
      pool.shutdown();
      points = dataset.pointCount();
      double seconds = (System.nanoTime() - started) / 1e9;
      long rollStart = System.nanoTime();
      store.roll();
      double rollSeconds = (System.nanoTime() - rollStart) / 1e9;
      long bytes = directorySize(directory.resolve("metric-buckets"));
      return String.format(
          "store ingest (MetricIndexStore.add, %d points per call, %d threads, generated under a"
              + " lock): %,.0f points/s (%.1f s); roll to warm %.1f s; %.3f bytes per point",
          Math.max(1, 10_000 / (dataset.hosts * dataset.metrics)) * dataset.hosts * dataset.metrics,
          threads,
          points / seconds,
          seconds,
          rollSeconds,
          bytes / (double) points);
    }
  }

  /** A query's times over several runs. */
  record Timing(String query, double[] millis, long rows, double cpuMillisPerRun) {
    double median() {
      return millis[millis.length / 2];
    }

    String line() {
      return String.format(
          "%s: median %.1f ms (min %.1f, max %.1f, %d runs), %d rows; CPU of this JVM (the server"
              + " and the one-connection client) %.1f ms per run",
          query,
          median(),
          millis[0],
          millis[millis.length - 1],
          millis.length,
          rows,
          cpuMillisPerRun);
    }
  }

  /**
   * Runs a query {@code runs} times over the export endpoint, over one keep-alive connection (a
   * lean client: the time is the server's and the loopback's, not a heavy client's).
   */
  private static Timing timeQuery(QuarryServer server, String query, int runs) throws Exception {
    URI url = URI.create(server.url());
    double[] millis = new double[runs];
    String lastBody;
    double cpuPerRun;
    byte[] request =
        ("output_mode=json&search=" + java.net.URLEncoder.encode(query, StandardCharsets.UTF_8))
            .getBytes(StandardCharsets.UTF_8);
    try (HttpSocket socket =
        new HttpSocket(
            url.getHost(),
            url.getPort(),
            "/services/search/jobs/export",
            "Basic "
                + java.util.Base64.getEncoder()
                    .encodeToString("admin:bench-pw".getBytes(StandardCharsets.UTF_8)),
            "application/x-www-form-urlencoded")) {
      int size = 0;
      for (int w = 0; w < warmup; w++) {
        size = socket.exchange(request);
      }
      long cpuBefore = processCpuNanos();
      for (int r = 0; r < runs; r++) {
        long started = System.nanoTime();
        size = socket.exchange(request);
        millis[r] = (System.nanoTime() - started) / 1e6;
      }
      cpuPerRun = (processCpuNanos() - cpuBefore) / 1e6 / runs;
      lastBody = new String(socket.answer(), 0, size, StandardCharsets.UTF_8);
    }
    Arrays.sort(millis);
    long rows = lastBody.lines().filter(l -> l.contains("\"result\"")).count();
    return new Timing(query, millis, rows, cpuPerRun);
  }

  /** CPU time of this JVM so far (every thread, the server's too). */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  static long directorySize(Path directory) throws IOException {
    if (!Files.exists(directory)) {
      return 0;
    }
    try (var files = Files.walk(directory)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }
}
