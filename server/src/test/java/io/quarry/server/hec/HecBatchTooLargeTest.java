package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A request whose events for one index pass {@code storage.maxBatchBytes} (here 4 KiB, so a small
 * body reaches the write-ahead log's {@code RecordTooLarge}) is answered 413 naming the limit, and
 * nothing of it is stored — not the batch of another index that fits, written before it would have
 * been; the body split into requests that fit stores each event once. Against a real server over
 * HTTP.
 */
class HecBatchTooLargeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";
  private static final long LIMIT = 4096;

  @TempDir Path dataDirectory;
  @AutoClose private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            PASSWORD,
            settings ->
                TestServers.indexes(settings, TestServers.TOKEN, List.of("main", "web", "probe"))
                    .put("storage.maxBatchBytes", LIMIT));
  }

  @Test
  void aLaterIndexsBatchTooLargeStoresNothingOfTheBodyAndTheSplitBodyStoresEachEventOnce()
      throws Exception {
    String main = envelope("main", "m", 100);
    String web = envelope("web", "w1", 1500) + envelope("web", "w2", 1500);
    String third = envelope("web", "w3", 1500);

    HttpResponse<String> refused = post("/services/collector/event", main + web + third);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(413);
    JsonNode error = JSON.readTree(refused.body()).get("error");
    assertThat(error.get("code").asText()).isEqualTo("REQUEST_TOO_LARGE");
    assertThat(error.get("message").asText())
        .contains("larger than a write-ahead log record may be (" + LIMIT + " bytes)");
    assertThat(counts()).as("nothing of the body, not main's batch either").containsExactly(0L, 0L);

    HttpResponse<String> first = post("/services/collector/event", main + web);
    assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
    HttpResponse<String> second = post("/services/collector/event", third);
    assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
    assertThat(counts()).as("each event once: main, web").containsExactly(1L, 3L);
  }

  @Test
  void aRawBodyOverTheLimitIsRefusedWhole() throws Exception {
    String lines = ("x".repeat(99) + "\n").repeat(50); // 5,000 bytes, 50 events
    HttpResponse<String> refused = post("/services/collector/raw?index=web", lines);
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(413);
    assertThat(JSON.readTree(refused.body()).get("error").get("message").asText())
        .contains("(" + LIMIT + " bytes)");
    assertThat(counts()).containsExactly(0L, 0L);

    HttpResponse<String> half = post("/services/collector/raw?index=web", lines.substring(2500));
    assertThat(half.statusCode()).as(half.body()).isEqualTo(200);
    assertThat(counts()).containsExactly(0L, 25L);
  }

  @Test
  void aBodyForTwoIndexesIsRefusedExactlyWhereOneIndexsBatchAloneIs() throws Exception {
    // the largest event the append takes alone (one index: its own check of the encoded record),
    // found on an index of its own; the pre-write check of a body for two indexes counts the
    // batch without encoding it and must refuse at the very same byte
    int low = 1000; // taken
    int high = (int) LIMIT; // refused: the text alone fills the record
    while (high - low > 1) {
      int middle = (low + high) / 2;
      HttpResponse<String> alone =
          post("/services/collector/event", envelope("probe", "x", middle));
      if (alone.statusCode() == 200) {
        low = middle;
      } else {
        assertThat(alone.statusCode()).as(alone.body()).isEqualTo(413);
        high = middle;
      }
    }
    String main = envelope("main", "m", 100);

    HttpResponse<String> refused =
        post("/services/collector/event", main + envelope("web", "x", low + 1));
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(413);
    assertThat(counts()).as("one byte over: nothing of the body").containsExactly(0L, 0L);

    HttpResponse<String> taken =
        post("/services/collector/event", main + envelope("web", "x", low));
    assertThat(taken.statusCode()).as(taken.body()).isEqualTo(200);
    assertThat(counts()).as("at the limit: both").containsExactly(1L, 1L);
  }

  /** An envelope for {@code index} whose event is {@code name} padded to {@code bytes}. */
  private static String envelope(String index, String name, int bytes) {
    String event = name + " " + "p".repeat(bytes - name.length() - 1);
    return "{\"index\":\"" + index + "\",\"sourcetype\":\"big\",\"event\":\"" + event + "\"}";
  }

  private HttpResponse<String> post(String path, String body) throws Exception {
    return TestServers.postHec(server, path, body);
  }

  private List<Long> counts() throws Exception {
    return List.of(
        TestServers.countOf(server, PASSWORD, "main"),
        TestServers.countOf(server, PASSWORD, "web"));
  }
}
