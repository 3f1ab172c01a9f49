package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code /services/collector/event} body whose events go to several indexes and holds a bad
 * envelope, against a real server, as Splunk answers it: a refusal found at any envelope (an index
 * the token may not write, one that does not exist, a malformed envelope, a value the index
 * refuses) is a 400 naming it ({@code invalid-event-number}) that stores the envelopes before it,
 * in every index, once, and none after it; the rest resent from the bad envelope on, corrected,
 * stores each event once.
 */
class HecBadEnvelopeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";

  @TempDir Path dataDirectory;
  @AutoClose private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            PASSWORD,
            settings ->
                settings
                    .put("indexes", List.of("main", "web", "audit"))
                    .put("storage.indexes.web.fields", java.util.Map.of("status", "long"))
                    // the token writes main and web, not audit
                    .put(
                        "hec.tokens",
                        List.of(
                            new HecToken(
                                TestServers.TOKEN, "test", "main", List.of("main", "web"), null))));
  }

  @Test
  void anIndexTheTokenMayNotWriteStoresTheEventsBeforeItAndTheRestResentStoresEachOnce()
      throws Exception {
    HttpResponse<String> refused =
        post(
            "{\"event\":\"first in main\"}{\"event\":\"first in web\",\"index\":\"web\"}"
                + "{\"event\":\"third in audit\",\"index\":\"audit\"}");
    assertThat(refused.statusCode()).as(refused.body()).isEqualTo(400);
    JsonNode answer = JSON.readTree(refused.body());
    assertThat(answer.get("code").asInt()).isEqualTo(7);
    assertThat(answer.get("invalid-event-number").asInt()).isEqualTo(2);
    assertThat(answer.get("reason").asText()).contains("may not write to index 'audit'");
    assertThat(counts())
        .as("the two events before the bad one, once each")
        .isEqualTo(List.of(1L, 1L));

    // the client resends from the bad envelope on, corrected
    HttpResponse<String> rest = post("{\"event\":\"third in main\",\"index\":\"main\"}");
    assertThat(rest.statusCode()).as(rest.body()).isEqualTo(200);
    assertThat(counts()).as("each event once: main, web").isEqualTo(List.of(2L, 1L));
  }

  @Test
  void anIndexThatDoesNotExistStoresTheEventsBeforeIt() throws Exception {
    HttpResponse<String> refused =
        post(
            "{\"event\":\"a\",\"index\":\"web\"}{\"event\":\"b\"}"
                + "{\"event\":\"c\",\"index\":\"nosuch\"}{\"event\":\"d\"}");
    assertThat(refused.statusCode()).isEqualTo(400);
    JsonNode answer = JSON.readTree(refused.body());
    assertThat(answer.get("code").asInt()).isEqualTo(7);
    assertThat(answer.get("invalid-event-number").asInt()).isEqualTo(2);
    assertThat(counts()).as("a and b, not d after the bad one").isEqualTo(List.of(1L, 1L));

    HttpResponse<String> rest = post("{\"event\":\"c\",\"index\":\"web\"}{\"event\":\"d\"}");
    assertThat(rest.statusCode()).as(rest.body()).isEqualTo(200);
    assertThat(counts()).isEqualTo(List.of(2L, 2L));
  }

  @Test
  void aMalformedOrRefusedEnvelopeAfterOthersInTwoIndexesStoresThoseBeforeIt() throws Exception {
    HttpResponse<String> malformed =
        post("{\"event\":\"a\"}{\"event\":\"b\",\"index\":\"web\"}{\"event\": nope}");
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(malformed.body()).get("code").asInt()).isEqualTo(6);
    assertThat(JSON.readTree(malformed.body()).get("invalid-event-number").asInt()).isEqualTo(2);
    assertThat(counts()).isEqualTo(List.of(1L, 1L));

    // web declares status a long: the value is refused by the index, after an event for main
    HttpResponse<String> typed =
        post(
            "{\"event\":\"a\"}{\"event\":\"b\",\"index\":\"web\",\"fields\":{\"status\":\"200\"}}"
                + "{\"event\":\"c\",\"index\":\"web\",\"fields\":{\"status\":\"oops\"}}");
    assertThat(typed.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(typed.body()).get("invalid-event-number").asInt()).isEqualTo(2);
    assertThat(counts()).isEqualTo(List.of(2L, 2L));

    HttpResponse<String> rest =
        post("{\"event\":\"c\",\"index\":\"web\",\"fields\":{\"status\":\"500\"}}");
    assertThat(rest.statusCode()).as(rest.body()).isEqualTo(200);
    assertThat(counts()).as("each event once").isEqualTo(List.of(2L, 3L));
  }

  private HttpResponse<String> post(String body) throws Exception {
    return TestServers.postHec(server, "/services/collector/event", body);
  }

  /** The events in main and in web, by a search over both. */
  private List<Long> counts() throws Exception {
    return List.of(
        TestServers.countOf(server, PASSWORD, "main"),
        TestServers.countOf(server, PASSWORD, "web"));
  }
}
