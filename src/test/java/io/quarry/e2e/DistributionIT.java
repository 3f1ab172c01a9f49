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
  private Path pluginsDir; // null: the distribution's own plugins/

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
    if (pluginsDir != null) {
      builder.environment().put("QUARRY_PLUGINS_DIR", pluginsDir.toString());
    }
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

  /**
   * The bundled plugins and the template plugin — compiled here with javac against the
   * distribution's SPI jar alone, outside Quarry's build, as docs/plugins.md describes — loaded by
   * {@code bin/quarry server} from a plugins directory, each working in a search.
   */
  @Test
  void bundledAndTemplatePluginsWorkInTheDistribution() throws Exception {
    Path home = Path.of(System.getProperty("quarry.home"));
    pluginsDir = dataDirectory.resolveSibling(dataDirectory.getFileName() + "-plugins");
    try (var bundled = Files.list(home.resolve("plugins"))) {
      for (Path plugin : bundled.filter(Files::isDirectory).toList()) {
        Path target = Files.createDirectories(pluginsDir.resolve(plugin.getFileName()));
        try (var files = Files.list(plugin)) {
          for (Path file : files.toList()) {
            Files.copy(file, target.resolve(file.getFileName()));
          }
        }
      }
    }
    buildTemplatePlugin(home, Path.of(System.getProperty("quarry.plugin.template")));

    ProcessBuilder list =
        new ProcessBuilder(home.resolve("bin/quarry").toString(), "plugins", "list")
            .redirectErrorStream(true);
    list.environment().put("JAVA_HOME", System.getProperty("java.home"));
    list.environment().put("QUARRY_PLUGINS_DIR", pluginsDir.toString());
    Process listing = list.start();
    String listed = new String(listing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(listing.waitFor()).as(listed).isZero();
    assertThat(listed)
        .contains("anomalydetection")
        .contains("entropy")
        .contains("iplocation")
        .contains("urlparse")
        .contains("mask, valuecount");

    stop();
    process = launch();
    StringBuilder batch = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      String ip = i == 39 ? "81.2.69.142" : "8.8.8." + (i % 4);
      String uri = "/cart.do?action=" + (i % 2 == 0 ? "view" : "add") + "&itemId=EST-" + i;
      int bytes = i == 39 ? 90000 : 500 + i % 5;
      String line =
          ip
              + " - - [07/Jan/2026:10:00:"
              + String.format("%02d", i)
              + " +0000] \"GET "
              + uri
              + " HTTP/1.1\" 200 "
              + bytes
              + " \"-\" \"curl\"";
      batch.append(
          JSON.writeValueAsString(
              Map.of("event", line, "sourcetype", "access_combined", "time", 1767780000 + i)));
    }
    assertThat(postEvents(batch.toString()).statusCode()).isEqualTo(200);

    assertThat(search("* | urlparse field=uri | stats count by uri_qs_action | sort uri_qs_action"))
        .containsExactly(
            Map.of("uri_qs_action", "add", "count", "20"),
            Map.of("uri_qs_action", "view", "count", "20"));
    assertThat(search("* | iplocation clientip | stats count by Country | sort Country"))
        .containsExactly(
            Map.of("Country", "United Kingdom", "count", "1"),
            Map.of("Country", "United States", "count", "39"));
    assertThat(
            search(
                "* | entropy clientip | where clientip=\"81.2.69.142\" | table clientip_entropy"))
        .hasSize(1);
    assertThat(search("* | anomalydetection field=bytes | table bytes count"))
        .containsExactly(Map.of("bytes", "90000", "count", "1"));
    assertThat(search("* | mask field=clientip keep=0 | valuecount field=clientip"))
        .containsExactly(
            Map.of("clientip", "*******", "count", "39"),
            Map.of("clientip", "***********", "count", "1"));
    assertThat(search("| help valuecount").get(0)).containsEntry("plugin", "example");
  }

  /** javac + jar of the template's sources, and its descriptor, as a plugin directory. */
  private void buildTemplatePlugin(Path home, Path template) throws Exception {
    Path api;
    try (var jars = Files.list(home.resolve("lib"))) {
      api =
          jars.filter(p -> p.getFileName().toString().startsWith("quarry-plugin-api-"))
              .findFirst()
              .orElseThrow();
    }
    Path classes = Files.createDirectories(pluginsDir.resolveSibling("template-classes"));
    List<String> arguments =
        new ArrayList<>(
            List.of("-d", classes.toString(), "--release", "21", "-cp", api.toString()));
    try (var sources = Files.walk(template.resolve("src/main/java"))) {
      sources.filter(p -> p.toString().endsWith(".java")).forEach(p -> arguments.add(p.toString()));
    }
    int status =
        javax.tools.ToolProvider.getSystemJavaCompiler()
            .run(null, null, null, arguments.toArray(String[]::new));
    assertThat(status).as("javac of the template plugin").isZero();
    Path resources = template.resolve("src/main/resources");
    Path target = Files.createDirectories(pluginsDir.resolve("example"));
    try (var jar =
        new java.util.jar.JarOutputStream(Files.newOutputStream(target.resolve("example.jar")))) {
      for (Path root : List.of(classes, resources)) {
        try (var files = Files.walk(root)) {
          for (Path file : files.filter(Files::isRegularFile).toList()) {
            jar.putNextEntry(
                new java.util.jar.JarEntry(root.relativize(file).toString().replace('\\', '/')));
            jar.write(Files.readAllBytes(file));
          }
        }
      }
    }
    Files.writeString(
        target.resolve("plugin.properties"),
        Files.readString(template.resolve("src/main/plugin/plugin.properties"))
            .replace("${project.version}", "1.0.0")
            .replace("${quarry.spi.version}", "1.0"));
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
