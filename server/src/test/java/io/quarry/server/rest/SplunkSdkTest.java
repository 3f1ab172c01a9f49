package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.QuarryConfig;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's own Python SDK ({@code splunk-sdk} 2.1.0 from PyPI, installed by this test into a venv
 * under {@code target/}) logs in, searches (oneshot, a polled job, export) and meets a bad password
 * and a bad query, against a real Quarry. Without a {@code python3} that can make a venv, or with
 * PyPI out of reach, the test is skipped and says why.
 */
class SplunkSdkTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path VENV = Path.of("target", "splunk-sdk-venv");

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        QuarryServer.start(
            new QuarryConfig(
                new QuarryConfig.Server("127.0.0.1", 0, 64L << 20, 4, null),
                dataDirectory.toString(),
                List.of("main"),
                new QuarryConfig.Auth("sdk-pw"),
                new QuarryConfig.Hec(
                    List.of(new QuarryConfig.HecToken("tok", "t", "main", List.of("main")))),
                null,
                null,
                null,
                null),
            Clock.systemUTC());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 300; i++) {
      lines.append("2026-01-01 00:00:00 id=").append(i).append(" status=");
      lines.append(i % 3 == 0 ? "500" : "200").append('\n');
    }
    HttpResponse<String> loaded =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/raw"))
                    .header("Authorization", "Splunk tok")
                    .POST(HttpRequest.BodyPublishers.ofString(lines.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(loaded.statusCode()).isEqualTo(200);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  /** Runs a command, returning its output, or null when it failed or timed out. */
  private static String run(List<String> command, long timeoutSeconds) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] output;
    try (InputStream in = process.getInputStream()) {
      output = in.readAllBytes();
    }
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS) || process.exitValue() != 0) {
      process.destroyForcibly();
      System.err.println(String.join(" ", command) + " failed:\n" + new String(output));
      return null;
    }
    return new String(output, StandardCharsets.UTF_8);
  }

  private static Path python() throws Exception {
    Path python = VENV.resolve("bin/python");
    if (Files.isExecutable(python)
        && run(List.of(python.toString(), "-c", "import splunklib"), 60) != null) {
      return python;
    }
    Assumptions.assumeTrue(
        run(List.of("python3", "-m", "venv", VENV.toString()), 120) != null,
        "no python3 with venv on this machine");
    Assumptions.assumeTrue(
        run(List.of(python.toString(), "-m", "pip", "install", "--quiet", "splunk-sdk==2.1.0"), 300)
            != null,
        "cannot install splunk-sdk from PyPI");
    return python;
  }

  @Test
  void splunksPythonSdkSearchesQuarry() throws Exception {
    Path python = python();
    Path script = Files.createTempFile("check", ".py");
    try (InputStream in = SplunkSdkTest.class.getResourceAsStream("/splunk-sdk/check.py")) {
      Files.write(script, in.readAllBytes());
    }
    String output =
        run(
            List.of(
                python.toString(),
                script.toString(),
                "127.0.0.1",
                Integer.toString(server.port()),
                "sdk-pw"),
            120);
    assertThat(output).as("the SDK script failed; its output is on standard error").isNotNull();
    JsonNode seen = JSON.readTree(output.lines().reduce((a, b) -> b).orElseThrow());

    assertThat(seen.get("version").asText()).isEqualTo(SplunkServerRoutes.SPLUNK_API_VERSION);
    assertThat(seen.get("oneshot").toString())
        .isEqualTo(
            "[{\"count\":\"200\",\"status\":\"200\"},{\"count\":\"100\",\"status\":\"500\"}]");
    assertThat(seen.get("job").toString()).isEqualTo("[{\"count\":\"100\"}]");
    assertThat(seen.get("resultCount").asInt()).isEqualTo(1);
    assertThat(seen.get("dispatchState").asText()).isEqualTo("DONE");
    assertThat(seen.get("listed").asBoolean()).isTrue();
    assertThat(seen.get("export").toString()).isEqualTo("[{\"count\":\"300\"}]");
    assertThat(seen.get("badPassword").asText()).isEqualTo("AuthenticationError");
    assertThat(seen.get("badQuery").asInt()).isEqualTo(400);
  }
}
