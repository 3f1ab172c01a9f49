package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reviewer b42 against lane visib42: {@code POST /api/v1/search}'s {@code costs} adds the search's
 * planning CPU (its subsearches run while it is planned) to {@code cpuMs}, while {@code elapsedMs}
 * counts only the run after planning. A search whose subsearch is the work then reports more CPU
 * than its wall time on every core could spend: CPU ms over elapsed ms past the core count.
 */
class SearchCostsWallTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "costs-pw";

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory.resolve("data"), PASSWORD);
  }

  @Test
  void cpuIsNeverMoreThanTheElapsedTimeOnEveryCore() throws Exception {
    // the subsearch (run while the search is planned) does the work: 200,000 rows hashed on its
    // driver thread; the outer search itself reads one generated row
    String query =
        "| makeresults | eval a=1 | search [| makeresults count=200000 | streamstats count AS a"
            + " | eval h=md5(md5(md5(tostring(a)))) | where a<=3 | fields a]";
    int cores = Runtime.getRuntime().availableProcessors();
    JsonNode costs = null;
    for (int attempt = 0; attempt < 3; attempt++) {
      costs = costs(query);
      double cpuMs = costs.path("cpuMs").asDouble();
      long elapsedMs = costs.path("elapsedMs").asLong();
      assertThat(cpuMs)
          .as("costs %s on %d cores: CPU ms at most elapsed ms x cores (+20 ms)", costs, cores)
          .isLessThanOrEqualTo((double) elapsedMs * cores + 20);
    }
  }

  private static JsonNode costs(String query) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .header("Accept", "application/json")
                    .POST(
                        HttpRequest.BodyPublishers.ofString(
                            JSON.writeValueAsString(Map.of("query", query))))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    JsonNode costs = JSON.readTree(response.body()).path("costs");
    assertThat(costs.isObject()).as(response.body()).isTrue();
    return costs;
  }
}
