package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.BusyIndexes;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's {@code receivers/simple} stores a body whole or not at all, over a real server: its
 * answer names no event a client could resume from, so a refused body is resent whole and must not
 * store its first events twice. An event the index cannot take (an index-time field that does not
 * parse as its declared type) is 400 {@code INVALID_EVENT} naming it; a body over {@code
 * storage.maxBatchBytes} is 413; a busy index is 503 {@code SERVER_BUSY} with {@code Retry-After}.
 * After each, the body resent (corrected, split, or once compaction caught up) stores each event
 * once.
 */
class SplunkReceiverWholeBodyTest {
  private static final String PASSWORD = "pw";
  private static final String PATH = "/services/receivers/simple?output_mode=json&index=main";

  @TempDir Path data;

  @Test
  void aBodyWithAnEventItsIndexCannotTakeStoresNothing() throws Exception {
    try (QuarryServer server =
        TestServers.start(
            data,
            PASSWORD,
            settings ->
                settings
                    .put("storage.indexes.main.fields", Map.of("status", "long"))
                    .put("sourcetypes.kvapp.indexExtractions", List.of(Map.of("type", "kv"))))) {
      String bad =
          "2026-01-01T00:00:01Z status=200 first\n"
              + "2026-01-01T00:00:02Z status=oops second\n"
              + "2026-01-01T00:00:03Z status=500 third\n";
      HttpResponse<String> refused = post(server, PATH + "&sourcetype=kvapp", bad);
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
      assertThat(TestServers.countOf(server, PASSWORD, "main"))
          .as("not the event before the bad one either")
          .isZero();
      assertThat(refused.body())
          .contains("INVALID_EVENT")
          .contains("event 2 cannot be stored: field 'status' is declared long")
          .contains("nothing of the body is stored");

      HttpResponse<String> resent =
          post(server, PATH + "&sourcetype=kvapp", bad.replace("oops", "404"));
      assertThat(resent.statusCode()).as(resent.body()).isEqualTo(200);
      assertThat(TestServers.countOf(server, PASSWORD, "main")).as("each once").isEqualTo(3);
    }
  }

  @Test
  void aBodyOverMaxBatchBytesIs413AndStoresNothing() throws Exception {
    try (QuarryServer server =
        TestServers.start(
            data, PASSWORD, settings -> settings.put("storage.maxBatchBytes", 4096))) {
      String lines = ("x".repeat(99) + "\n").repeat(50); // 5,000 bytes, 50 events
      HttpResponse<String> refused = post(server, PATH, lines);
      assertThat(refused.statusCode()).as(refused.body()).isEqualTo(413);
      assertThat(refused.body())
          .contains("REQUEST_TOO_LARGE")
          .contains("larger than a write-ahead log record may be (4096 bytes)");
      assertThat(TestServers.countOf(server, PASSWORD, "main")).isZero();

      assertThat(post(server, PATH, lines.substring(2500)).statusCode()).isEqualTo(200);
      assertThat(post(server, PATH, lines.substring(0, 2500)).statusCode()).isEqualTo(200);
      assertThat(TestServers.countOf(server, PASSWORD, "main")).isEqualTo(50);
    }
  }

  @Test
  void aBusyIndexAnswers503WithRetryAfterAndStoresNothing() throws Exception {
    try (QuarryServer server = TestServers.start(data, PASSWORD, BusyIndexes::settings)) {
      String body = "2026-01-02T00:00:00Z simple=1\n2026-01-02T00:00:01Z simple=2\n";
      int stored;
      try (BusyIndexes.Busy busy = BusyIndexes.fill(server, TestServers.TOKEN, "main")) {
        assertThat(busy.refused()).as("main refused within 200 batches").isNotNull();
        stored = busy.stored();
        HttpResponse<String> refused = post(server, PATH, body);
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("1");
        assertThat(refused.body())
            .contains("SERVER_BUSY")
            .contains("index main: compaction lags behind ingest");
      }
      HttpResponse<String> taken = null;
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (System.nanoTime() < deadline) {
        taken = post(server, PATH, body);
        if (taken.statusCode() == 200) {
          break;
        }
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(503);
        Thread.sleep(200);
      }
      assertThat(taken.statusCode()).as("taken once compaction caught up").isEqualTo(200);
      assertThat(TestServers.countOf(server, PASSWORD, "main"))
          .as("the filled batches and the body once")
          .isEqualTo(stored + 2);
    }
  }

  private static HttpResponse<String> post(QuarryServer server, String path, String body)
      throws Exception {
    return new TestHttp(server.url()).send("POST", path, TestHttp.basic("admin", PASSWORD), body);
  }
}
