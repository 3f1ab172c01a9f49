package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.BusyIndexes;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /services/collector/health} reports an index whose compaction lags behind ingest, over a
 * real server: 503 code 18 "HEC is unhealthy, queues are full" with {@code Retry-After} while the
 * index refuses events (Splunk's answer when HEC cannot take data); asked with a HEC token, the
 * {@code reason} and {@code busy-indexes} name the busy indexes that token writes, and a token that
 * writes only other indexes is answered healthy; asked without a token, no index is named. Once
 * compaction catches up, health is 200 code 17 again.
 */
class HecHealthBusyIndexTest {
  private static final String WEB_TOKEN = "web-only";

  @TempDir Path data;

  @Test
  void healthIs503NamingTheBusyIndexUntilCompactionCaughtUp() throws Exception {
    try (QuarryServer server =
        TestServers.start(
            data,
            "pw",
            settings ->
                BusyIndexes.settings(settings)
                    .put("indexes", List.of("main", "web"))
                    .put(
                        "hec.tokens",
                        List.of(
                            new HecToken(
                                TestServers.TOKEN, "both", "main", List.of("main", "web"), null),
                            new HecToken(WEB_TOKEN, "web", "web", List.of("web"), null))))) {
      TestHttp http = new TestHttp(server.url());
      assertHealthy(health(http, null));

      try (BusyIndexes.Busy busy = BusyIndexes.fill(server, TestServers.TOKEN, "main")) {
        assertThat(busy.refused()).as("main refused within 200 batches").isNotNull();
        assertThat(busy.refused().statusCode()).as(busy.refused().body()).isEqualTo(503);

        HttpResponse<String> named = health(http, TestServers.TOKEN);
        assertThat(named.statusCode()).as(named.body()).isEqualTo(503);
        assertThat(named.headers().firstValue("Retry-After")).hasValue("1");
        JsonNode answer = TestHttp.json(named.body());
        assertThat(answer.get("text").asText()).isEqualTo("HEC is unhealthy, queues are full");
        assertThat(answer.get("code").asInt()).isEqualTo(18);
        assertThat(answer.get("reason").asText())
            .startsWith("index main: compaction lags behind ingest");
        assertThat(answer.get("busy-indexes").toString()).isEqualTo("[\"main\"]");

        HttpResponse<String> anonymous = health(http, null);
        assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(503);
        assertThat(anonymous.headers().firstValue("Retry-After")).hasValue("1");
        JsonNode unnamed = TestHttp.json(anonymous.body());
        assertThat(unnamed.get("code").asInt()).isEqualTo(18);
        assertThat(unnamed.get("reason").asText())
            .isEqualTo(
                "compaction lags behind ingest in 1 index (ask with a HEC token to see which of"
                    + " its indexes)");
        assertThat(unnamed.has("busy-indexes")).isFalse();

        assertHealthy(health(http, WEB_TOKEN)); // web takes events
        assertThat(TestServers.postRaw(server, WEB_TOKEN, "app", "web", "one\n").statusCode())
            .isEqualTo(200);
      }

      HttpResponse<String> healed = null;
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (System.nanoTime() < deadline) {
        healed = health(http, TestServers.TOKEN);
        if (healed.statusCode() == 200) {
          break;
        }
        Thread.sleep(200);
      }
      assertHealthy(healed);
      assertThat(
              TestServers.postRaw(server, TestServers.TOKEN, "app", "main", "two\n").statusCode())
          .as("main takes events again")
          .isEqualTo(200);
    }
  }

  private static HttpResponse<String> health(TestHttp http, String token) throws Exception {
    return http.send(
        "GET", "/services/collector/health", token == null ? null : "Splunk " + token, null);
  }

  private static void assertHealthy(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode answer = TestHttp.json(response.body());
    assertThat(answer.get("code").asInt()).isEqualTo(17);
    assertThat(answer.get("text").asText()).isEqualTo("HEC is healthy");
  }
}
