package io.quarry.benchmarks.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The peer the block index (issue 23) is measured against: a VictoriaLogs binary the user gives
 * ({@code benchmarks/victorialogs/build.sh} builds the version the issue names from the Go module
 * proxy) run as a child process on 127.0.0.1 with a data directory of its own, fed JSON lines over
 * {@code /insert/jsonline} and asked LogsQL over {@code /select/logsql/query}.
 */
final class VictoriaLogsEngine implements Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final Path dataDir;
  private final URI uri;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();

  private VictoriaLogsEngine(Process process, Path dataDir, URI uri) {
    this.process = process;
    this.dataDir = dataDir;
    this.uri = uri;
  }

  /** Starts {@code binary} on a fresh {@code dataDir}; returns once it answers its health check. */
  static VictoriaLogsEngine start(Path binary, Path dataDir, Path log) throws Exception {
    deleteRecursively(dataDir);
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Process process =
        new ProcessBuilder(
                binary.toAbsolutePath().toString(),
                "-storageDataPath=" + dataDir.toAbsolutePath(),
                "-httpListenAddr=127.0.0.1:" + port,
                "-retentionPeriod=100y", // the dataset's times are fixed, however old they get
                "-search.maxQueryDuration=1h", // as Quarry's bench server (30 s by default)
                "-loggerLevel=WARN")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    VictoriaLogsEngine engine =
        new VictoriaLogsEngine(process, dataDir, URI.create("http://127.0.0.1:" + port));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      try {
        if (engine.get("/health").statusCode() == 200) {
          return engine;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (!process.isAlive() || System.nanoTime() > deadline) {
        engine.close();
        throw new IOException("VictoriaLogs did not start; see " + log);
      }
      Thread.sleep(100);
    }
  }

  /** The version line the binary reports. */
  static String version(Path binary) throws IOException, InterruptedException {
    Process version =
        new ProcessBuilder(binary.toAbsolutePath().toString(), "-version")
            .redirectErrorStream(true)
            .start();
    String out =
        new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    version.waitFor();
    return out;
  }

  /**
   * Sends the JSON lines in bodies of about {@code bodyBytes} over {@code connections} concurrent
   * requests; returns the lines sent.
   */
  long ingest(Path jsonLines, int connections, int bodyBytes) throws Exception {
    ExecutorService senders = Executors.newFixedThreadPool(connections);
    List<Future<?>> sent = new ArrayList<>();
    long lines = 0;
    try (InputStream in = Files.newInputStream(jsonLines)) {
      byte[] carry = new byte[0];
      while (true) {
        byte[] chunk = in.readNBytes(bodyBytes);
        if (chunk.length == 0 && carry.length == 0) {
          break;
        }
        byte[] joined = new byte[carry.length + chunk.length];
        System.arraycopy(carry, 0, joined, 0, carry.length);
        System.arraycopy(chunk, 0, joined, carry.length, chunk.length);
        int end = joined.length;
        if (chunk.length == bodyBytes) { // more may follow: cut after the last whole line
          end = lastNewline(joined) + 1;
        }
        byte[] body = Arrays.copyOf(joined, end);
        carry = Arrays.copyOfRange(joined, end, joined.length);
        lines += newlines(body);
        if (sent.size() >= connections) {
          sent.remove(0).get(); // at most `connections` bodies in flight and in memory
        }
        sent.add(senders.submit(() -> post("/insert/jsonline", body)));
        if (chunk.length < bodyBytes) {
          break;
        }
      }
      for (Future<?> future : sent) {
        future.get();
      }
    } finally {
      senders.shutdownNow();
    }
    return lines;
  }

  private Void post(String path, byte[] body) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(uri.resolve(path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IOException(
          "VictoriaLogs answered "
              + response.statusCode()
              + " to "
              + path
              + ": "
              + response.body());
    }
    return null;
  }

  private static int lastNewline(byte[] bytes) {
    for (int i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i;
      }
    }
    throw new IllegalArgumentException("a JSON line longer than a body");
  }

  private static long newlines(byte[] bytes) {
    long count = 0;
    for (byte b : bytes) {
      if (b == '\n') {
        count++;
      }
    }
    return count;
  }

  /** Waits until a search counts {@code lines} lines (two minutes at most); returns the count. */
  long awaitSearchable(long lines) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    long seen = 0;
    while (System.nanoTime() < deadline) {
      seen = run(LogsQl.of("* | stats count() as count")).countSum();
      if (seen >= lines) {
        break;
      }
      Thread.sleep(200);
    }
    return seen;
  }

  /** Runs a query and reads every answer line (see {@link LogsQl#rowKey}). */
  Answer run(LogsQl query) throws IOException, InterruptedException {
    String path =
        "/select/logsql/query?query=" + URLEncoder.encode(query.query(), StandardCharsets.UTF_8);
    HttpResponse<InputStream> response =
        http.send(
            HttpRequest.newBuilder(uri.resolve(path)).GET().build(),
            HttpResponse.BodyHandlers.ofInputStream());
    long rows = 0;
    long countSum = 0;
    boolean counted = false;
    Set<String> keys = new HashSet<>();
    try (BufferedReader lines =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      if (response.statusCode() != 200) {
        throw new IOException(
            "VictoriaLogs answered "
                + response.statusCode()
                + " to "
                + query.query()
                + ": "
                + lines.readLine());
      }
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        JsonNode row = JSON.readTree(line);
        rows++;
        if (query.rowKey() != null) {
          keys.add(row.path(query.rowKey()).asText());
        }
        JsonNode count = row.get("count");
        if (count != null) {
          countSum += Long.parseLong(count.asText());
          counted = true;
        }
      }
    }
    return new Answer(query.rowKey() != null ? keys.size() : rows, counted ? countSum : -1);
  }

  /** Bytes of the files under a data directory (data, indexes, metadata). */
  static long bytes(Path dataDir) throws IOException {
    try (Stream<Path> files = Files.walk(dataDir)) {
      return files
          .filter(Files::isRegularFile)
          .mapToLong(
              file -> {
                try {
                  return Files.size(file);
                } catch (IOException gone) { // a part merged away while walking
                  return 0;
                }
              })
          .sum();
    }
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(uri.resolve(path)).GET().timeout(Duration.ofMinutes(5)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() throws IOException {
    process.destroy(); // SIGTERM: VictoriaLogs writes what it holds in memory and stops
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    }
  }
}
