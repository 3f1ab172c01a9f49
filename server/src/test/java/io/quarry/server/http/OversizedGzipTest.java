package io.quarry.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gzip body that inflates past {@code server.maxRequestBytes} is a size refusal, 413 with the
 * JSON error, whatever the in-flight budget: with a budget no larger than the limit (the default on
 * a heap of 1 GiB or less) the chunk crossing the limit was counted against the budget first and
 * the body answered 503 "busy, retry" (why {@code AttackSuiteTest}'s gzip bomb took 413 or 503).
 * Failed on main (dd938fea): 503.
 */
class OversizedGzipTest {
  private static final long LIMIT = 4L << 20;

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            "gzip-pw",
            settings ->
                settings
                    .put("server.maxRequestBytes", LIMIT)
                    .put("server.maxInFlightBytes", LIMIT));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void aGzipBodyInflatingPastTheRequestLimitIsAnswered413() throws Exception {
    ByteArrayOutputStream compressed = new ByteArrayOutputStream();
    try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
      byte[] line =
          "a line of the body\n".repeat(1_000).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      for (long written = 0; written < 4 * LIMIT; written += line.length) {
        gzip.write(line);
      }
    }
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/raw"))
                    .header("Authorization", "Splunk " + TestServers.TOKEN)
                    .header("Content-Encoding", "gzip")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(compressed.toByteArray()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());

    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(413);
    assertThat(new ObjectMapper().readTree(answer.body()).at("/error/code").asText())
        .isEqualTo("REQUEST_TOO_LARGE");
  }
}
