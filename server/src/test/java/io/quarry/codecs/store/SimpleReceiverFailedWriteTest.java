package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigBuilder;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's {@code receivers/simple} answers a write the disk fails 503 {@code SERVER_BUSY} with
 * {@code Retry-After}, storing nothing of the body, over a real server whose index's disk breaks
 * ({@link FaultyDirectories#brokenWhile}, through the server's directory seam): the body resent
 * once the disk works is stored once, and the body acknowledged before the failure is still there
 * once, after a restart too.
 */
class SimpleReceiverFailedWriteTest {
  private static final String PASSWORD = "pw";
  private static final String PATH =
      "/services/receivers/simple?output_mode=json&index=main&sourcetype=app";

  @TempDir Path data;

  private static final UnaryOperator<ConfigBuilder> FAST_COMMITS =
      settings -> settings.put("storage.commitIntervalSeconds", 1);

  @Test
  void aFailedWriteIs503AndStoresNothingOfTheBody() throws Exception {
    String before = "2026-01-02T00:00:00Z simple before 1\n2026-01-02T00:00:01Z simple before 2\n";
    String body = "2026-01-02T00:00:02Z simple body 1\n2026-01-02T00:00:03Z simple body 2\n";
    BrokenDisks main = new BrokenDisks("main");
    try (QuarryServer server =
        TestServers.startWithDirectories(data, PASSWORD, FAST_COMMITS, main.directories())) {
      HttpResponse<String> first = post(server, before);
      assertThat(first.statusCode()).as(first.body()).isEqualTo(200);

      main.breakAndAwaitFailure(server, 60);
      HttpResponse<String> failed = post(server, body);
      assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
      assertThat(failed.headers().firstValue("Retry-After")).hasValue("1");
      assertThat(failed.body())
          .contains("SERVER_BUSY")
          .contains("storage write failed")
          .contains("injected: the disk is broken");

      main.mend();
      HttpResponse<String> resent = post(server, body);
      assertThat(resent.statusCode()).as(resent.body()).isEqualTo(200);
      assertThat(StoredTexts.of(server, PASSWORD, "main")).isEqualTo(expected());
    }
    try (QuarryServer restarted = TestServers.start(data, PASSWORD, FAST_COMMITS)) {
      assertThat(StoredTexts.of(restarted, PASSWORD, "main"))
          .as("each event once after a restart")
          .isEqualTo(expected());
    }
  }

  private static Map<String, Long> expected() {
    return Map.of(
        "2026-01-02T00:00:00Z simple before 1", 1L,
        "2026-01-02T00:00:01Z simple before 2", 1L,
        "2026-01-02T00:00:02Z simple body 1", 1L,
        "2026-01-02T00:00:03Z simple body 2", 1L);
  }

  private static HttpResponse<String> post(QuarryServer server, String body) throws Exception {
    return new TestHttp(server.url()).send("POST", PATH, TestHttp.basic("admin", PASSWORD), body);
  }
}
