package io.quarry.benchmarks.e2e;

import io.quarry.client.QuarryClient;
import java.io.Closeable;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.lucene.util.IOUtils;

/**
 * A Quarry server in a child JVM on a fresh data directory, started from this JVM's own class path
 * (the shaded benchmarks jar holds the whole server), listening on a free port of 127.0.0.1. Its
 * output goes to {@code server.log} beside the data directory. The configuration it writes is
 * {@link ServerConfigFile}'s; what it reads from {@code /metrics}, {@link MetricsPage}'s.
 */
final class QuarryProcess implements Closeable {
  static final String PASSWORD = "bench-password";

  private final Process process;
  private final URI uri;
  private final Path dataDir;
  private final Path workDir;
  private final List<QuarryClient> clients = new CopyOnWriteArrayList<>(); // closed with it
  private final MetricsPage metrics;

  private QuarryProcess(Process process, URI uri, Path dataDir, Path workDir) {
    this.process = process;
    this.uri = uri;
    this.dataDir = dataDir;
    this.workDir = workDir;
    this.metrics = new MetricsPage(uri);
  }

  /**
   * Starts a server on {@code workDir/data} (emptied first unless {@code keepData}) and waits until
   * it answers; with {@code profile}, under async-profiler, its collapsed stacks written to {@code
   * workDir/profile-collapsed.txt} when the server exits; {@code format} its indexes' {@code
   * storage.indexes.<name>.format} ({@code events} or {@code blocks}), {@code blockEvents} its
   * {@code storage.blockEvents} and {@code journalCompression} its {@code
   * storage.journalCompression} (each null: the server's default); {@code indexedSessions} gives
   * {@code access_combined} JSESSIONID at index time ({@link #INDEXED_SESSIONS}).
   */
  static QuarryProcess start(
      Path workDir,
      String heap,
      boolean profile,
      boolean keepData,
      String format,
      Integer blockEvents,
      String journalCompression,
      boolean indexedSessions)
      throws IOException, InterruptedException {
    Path dataDir = workDir.resolve("data");
    if (Files.exists(dataDir) && !keepData) {
      IOUtils.rm(dataDir);
    }
    Files.createDirectories(dataDir);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path config = workDir.resolve("quarry.yml");
    Files.writeString(
        config,
        ServerConfigFile.text(
            port, dataDir, format, blockEvents, journalCompression, indexedSessions));
    Process process =
        new ProcessBuilder(
                command(
                    heap,
                    serverOptions(heap, profile ? profilerAgent(workDir) : null),
                    "server",
                    "--config=" + config.toAbsolutePath()))
            .redirectErrorStream(true)
            .redirectOutput(workDir.resolve("server.log").toFile())
            .start();
    URI uri = URI.create("http://127.0.0.1:" + port + "/");
    QuarryProcess server = new QuarryProcess(process, uri, dataDir, workDir);
    server.awaitReady();
    return server;
  }

  /**
   * The CPU time the server's JVM has used so far, in nanoseconds (every thread: search workers,
   * the compiler, the collector), or -1 where the OS does not tell.
   */
  long cpuNanos() {
    return process.toHandle().info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
  }

  /**
   * The user and system CPU time of this JVM's children that have ended and been waited for, in
   * nanoseconds ({@code cutime + cstime} of {@code /proc/self/stat}, in the kernel's 100 Hz ticks),
   * or -1 where there is no {@code /proc}. A child's own CPU cannot be asked once it has exited
   * ({@code ProcessHandle.info} needs it alive), and sampling it while it runs would miss its last
   * moments; this counts every thread of it to the end, startup and JIT included.
   */
  static long childrenCpuNanos() {
    try {
      String stat = Files.readString(Path.of("/proc/self/stat"));
      // the fields after the command name (in parentheses, which may hold spaces): state is the
      // third field, cutime the 16th and cstime the 17th
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      long ticks = Long.parseLong(fields[16 - 3]) + Long.parseLong(fields[17 - 3]);
      return ticks * 10_000_000L;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /**
   * The {@code -agentpath} option of async-profiler: its library for this OS and architecture,
   * copied out of the async-profiler jar on the class path into {@code workDir}. CPU time by
   * interval timer (works in VMs without perf events), every 2 ms, collapsed stacks.
   */
  static String profilerAgent(Path workDir) throws IOException {
    String os = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT);
    String arch = System.getProperty("os.arch");
    String resource =
        os.contains("mac")
            ? "macos/libasyncProfiler.so"
            : arch.equals("aarch64")
                ? "linux-arm64/libasyncProfiler.so"
                : "linux-x64/libasyncProfiler.so";
    Path library = workDir.resolve("libasyncProfiler.so");
    try (var in = QuarryProcess.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("async-profiler has no " + resource + " on the class path");
      }
      Files.copy(in, library, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
    Path output = workDir.resolve("profile-collapsed.txt").toAbsolutePath();
    return "-agentpath:"
        + library.toAbsolutePath()
        + "=start,event=itimer,interval=2ms,collapsed,file="
        + output;
  }

  /**
   * The server's own JVM options, as {@code bin/quarry server} runs it: Lucene's vector module, and
   * its whole heap taken at start and touched once ({@code -Xms} = {@code -Xmx}, {@code
   * -XX:+AlwaysPreTouch}), so an ingest pays no first-touch page faults or heap growth in its
   * window (session 46: ~6% less server CPU for 10M lines in three alternated pairs of ingest
   * windows; one full benchmark run after it was level with the baseline before it).
   */
  static List<String> serverOptions(String heap, String profilerAgent) {
    List<String> options =
        new ArrayList<>(
            List.of("--add-modules", "jdk.incubator.vector", "-Xms" + heap, "-XX:+AlwaysPreTouch"));
    if (profilerAgent != null) {
      options.add(profilerAgent);
    }
    return options;
  }

  /** A command line running Quarry's CLI in a JVM like this one, on this class path. */
  static List<String> command(String heap, List<String> jvmOptions, String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx" + heap);
    command.add("-XX:+UseG1GC");
    command.add("--enable-native-access=ALL-UNNAMED");
    command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
    // storage settings given to the harness (-Dquarry.storage.termFilters=true) reach Quarry too
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("quarry.storage.")
          && !name.startsWith(ServerConfigFile.COMPACTION_PREFIX)) {
        command.add("-D" + name + "=" + System.getProperty(name));
      }
    }
    command.addAll(jvmOptions);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.quarry.server.cli.QuarryCli");
    command.addAll(List.of(arguments));
    return command;
  }

  private void awaitReady() throws IOException, InterruptedException {
    HttpClient http = HttpClient.newHttpClient();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "Quarry exited with " + process.exitValue() + "; see " + workDir.resolve("server.log"));
      }
      try {
        HttpResponse<String> response =
            http.send(
                HttpRequest.newBuilder(uri.resolve("/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    close();
    throw new IOException("Quarry did not answer /health within 60 s");
  }

  URI uri() {
    return uri;
  }

  Path dataDir() {
    return dataDir;
  }

  /** The HEC token the server generated into its data directory. */
  String hecToken() throws IOException {
    return Files.readString(dataDir.resolve(".hec-token"), StandardCharsets.UTF_8).strip();
  }

  /** A client searching as admin; closed when this is. */
  QuarryClient client() {
    return kept(
        QuarryClient.builder(uri).adminPassword(PASSWORD).timeout(Duration.ofHours(1)).build());
  }

  /** A client sending with the server's HEC token; closed when this is. */
  QuarryClient hecClient() throws IOException {
    return kept(
        QuarryClient.builder(uri).hecToken(hecToken()).timeout(Duration.ofMinutes(10)).build());
  }

  private QuarryClient kept(QuarryClient client) {
    clients.add(client);
    return client;
  }

  /**
   * Where the index's deferred compaction stands, as {@code GET /api/v1/indexes} says ({@link
   * io.quarry.client.IndexSummary}).
   */
  Measurements.Compaction.State compaction(String index) throws IOException {
    for (io.quarry.client.IndexSummary summary : client().indexes()) {
      if (summary.name().equals(index)) {
        return new Measurements.Compaction.State(
            summary.compacting(),
            summary.compactionDue(),
            summary.compactions(),
            summary.compactionPendingBytes());
      }
    }
    throw new IOException("the server lists no index " + index);
  }

  /**
   * What the index's store holds, as {@code GET /api/v1/indexes} says: its buckets' layouts,
   * segments and journal codecs ({@link StoreShape}).
   */
  StoreShape storeShape(String index) throws IOException {
    for (io.quarry.client.IndexSummary summary : client().indexes()) {
      if (summary.name().equals(index)) {
        return StoreShape.of(summary);
      }
    }
    throw new IOException("the server lists no index " + index);
  }

  /**
   * The CPU the server's searches' own threads have spent so far, in nanoseconds, or -1 from a
   * server that does not report it ({@link MetricsPage#searchCpuNanos}).
   */
  long searchCpuNanos() {
    return metrics.searchCpuNanos();
  }

  /** The server JVM's total JIT compilation time so far in milliseconds ({@link MetricsPage}). */
  long compilationMillis() {
    return metrics.compilationMillis();
  }

  /** Bytes on disk under the index's directory. */
  long indexBytes(String index) throws IOException {
    Path directory = dataDir.resolve("indexes").resolve(index);
    if (!Files.isDirectory(directory)) {
      throw new IOException("no index directory " + directory);
    }
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              f -> {
                try {
                  return Files.size(f);
                } catch (IOException gone) {
                  return 0; // merged away while walking
                }
              })
          .sum();
    }
  }

  @Override
  public void close() throws IOException {
    clients.forEach(QuarryClient::close);
    process.destroy();
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
