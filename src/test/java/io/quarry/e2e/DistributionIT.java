package io.quarry.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Starts {@code bin/quarry server} from the assembled distribution, posts events over HEC and
 * checks search answers through Splunk's export endpoint; then restarts it and checks that nothing
 * acknowledged was lost.
 */
class DistributionIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TOKEN = "e2e-token";
  private static final String PASSWORD = "e2e-password";

  @TempDir Path dataDirectory;
  private final HttpClient http = HttpClient.newHttpClient();
  private Process process;
  private Path log;
  private int port;

  @BeforeEach
  void start() throws Exception {
    port = freePort();
    log = dataDirectory.resolveSibling(dataDirectory.getFileName() + "-server.log");
    process = launch();
  }

  private Process launch() throws Exception {
    Path home = Path.of(System.getProperty("quarry.home"));
    ProcessBuilder builder =
        new ProcessBuilder(
            home.resolve("bin/quarry").toString(),
            "server",
            "--data-dir",
            dataDirectory.toString(),
            "--port",
            Integer.toString(port));
    builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
    builder.environment().put("QUARRY_HEC_TOKEN", TOKEN);
    builder.environment().put("QUARRY_ADMIN_PASSWORD", PASSWORD);
    builder.environment().put("QUARRY_JAVA_OPTS", "-Xmx256m");
    builder
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Process started = builder.start();
    awaitHealthy(started);
    return started;
  }

  @AfterEach
  void stop() throws Exception {
    if (process != null) {
      process.destroy();
      if (!process.waitFor(20, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    }
  }

  private void awaitHealthy(Process started) throws Exception {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (Instant.now().isBefore(deadline)) {
      if (!started.isAlive()) {
        throw new AssertionError(
            "server exited with " + started.exitValue() + ":\n" + Files.readString(log));
      }
      try {
        HttpResponse<String> health =
            http.send(
                HttpRequest.newBuilder(url("/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (health.statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    throw new AssertionError("server not healthy within 60s:\n" + Files.readString(log));
  }

  private URI url(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private HttpResponse<String> postEvents(String body) throws Exception {
    return http.send(
        HttpRequest.newBuilder(url("/services/collector/event"))
            .header("Authorization", "Splunk " + TOKEN)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private List<Map<String, String>> search(String query) throws Exception {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(url("/services/search/jobs/export"))
                .header(
                    "Authorization",
                    "Basic "
                        + Base64.getEncoder()
                            .encodeToString(("admin:" + PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        "output_mode=json&search="
                            + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<Map<String, String>> rows = new ArrayList<>();
    String[] lines = response.body().split("\n");
    for (int i = 0; i < lines.length; i++) {
      JsonNode line = JSON.readTree(lines[i]);
      assertThat(line.path("lastrow").asBoolean()).isEqualTo(i == lines.length - 1);
      Map<String, String> row = new LinkedHashMap<>();
      line.get("result").fields().forEachRemaining(f -> row.put(f.getKey(), f.getValue().asText()));
      rows.add(row);
    }
    return rows;
  }

  @Test
  void eventsPostedOverHecAreCountedByFieldAndSurviveARestart() throws Exception {
    StringBuilder batch = new StringBuilder();
    String[] statuses = {"200", "200", "200", "404", "500", "404", "200"};
    for (int i = 0; i < statuses.length; i++) {
      batch.append(
          JSON.writeValueAsString(
              Map.of(
                  "time", 1767744000 + i,
                  "host", "web-0" + (i % 2),
                  "sourcetype", "access",
                  "event", "GET /cart.do status=" + statuses[i] + " bytes=" + (100 * i))));
    }
    HttpResponse<String> accepted = postEvents(batch.toString());
    assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
    assertThat(accepted.body()).isEqualTo("{\"text\":\"Success\",\"code\":0}");

    List<Map<String, String>> byStatus = search("sourcetype=access | stats count by status");
    assertThat(byStatus)
        .containsExactly(
            Map.of("status", "200", "count", "4"),
            Map.of("status", "404", "count", "2"),
            Map.of("status", "500", "count", "1"));
    assertThat(search("search cart.do status>=404 | stats count, sum(bytes) by host"))
        .containsExactly(
            Map.of("host", "web-00", "count", "1", "sum(bytes)", "400"),
            Map.of("host", "web-01", "count", "2", "sum(bytes)", "800"));

    HttpResponse<String> rejected = postEvents("{\"event\":\"late\"}{\"event\":");
    assertThat(rejected.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(rejected.body()).get("code").asInt()).isEqualTo(6);

    process.destroy();
    assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
    process = launch();
    assertThat(search("* | stats count by sourcetype"))
        .containsExactly(
            Map.of("sourcetype", "access", "count", "7"),
            Map.of("sourcetype", "httpevent", "count", "1"));
    assertThat(search("sourcetype=access | head 2"))
        .extracting(row -> row.get("_time"))
        .containsExactly("2026-01-07T00:00:06.000+00:00", "2026-01-07T00:00:05.000+00:00");
  }

  @Test
  void theLauncherAnswersVersionAndHelp() throws Exception {
    Path home = Path.of(System.getProperty("quarry.home"));
    for (List<String> command :
        List.of(List.of("version"), List.of("search", "--help"), List.of("ingest", "--help"))) {
      List<String> full = new ArrayList<>(List.of(home.resolve("bin/quarry").toString()));
      full.addAll(command);
      ProcessBuilder builder = new ProcessBuilder(full).redirectErrorStream(true);
      builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
      Process run = builder.start();
      String output = new String(run.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(run.waitFor()).as(output).isZero();
      assertThat(output).as(String.join(" ", command)).containsAnyOf("quarry 0.", "Usage: quarry");
    }
  }
}
