package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.RunningServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code map} over a real server: its cut at {@code maxsearches} and the results lacking a token's
 * field are reported as messages, answers computed by hand. (Its answers are in {@code
 * map.spl-spec}; that it runs as the user who ran it, in {@code RolesTest}.)
 */
class MapSearchTest {
  private static final String PASSWORD = "map-test-password";
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension static final RunningServer SERVER = new RunningServer(PASSWORD);

  @Test
  void moreResultsThanMaxsearchesRunTheFirstOnesAndSaySo() throws Exception {
    List<JsonNode> lines =
        export("| makeresults count=12 | map search=\"| makeresults | eval n=$_serial_id$\"");
    List<String> runs = new ArrayList<>();
    for (JsonNode line : lines) {
      if (line.has("result")) {
        runs.add(line.at("/result/n").asText());
      }
    }
    assertThat(runs).containsExactly("1", "2", "3", "4", "5", "6", "7", "8", "9", "10");
    assertThat(lines.getLast().toString())
        .contains(
            "The search result count (12) exceeds maximum (10), using max. To override it, set"
                + " maxsearches appropriately.");
  }

  @Test
  void aResultWithoutATokensFieldRunsNoSearch() throws Exception {
    List<JsonNode> lines =
        export(
            "| makeresults count=2 | streamstats count AS k | eval h=if(k=1, \"x\", null())"
                + " | map search=\"| makeresults | eval got=\\\"$h$\\\" | table got\"");
    assertThat(lines.stream().filter(l -> l.has("result")).map(l -> l.at("/result/got").asText()))
        .containsExactly("x");
    assertThat(lines.getLast().toString())
        .contains("map: result 2 has no value for $h$; its search was not run");
  }

  @Test
  void itsSearchesStopWithTheSearchHoldingThem() throws Exception {
    // each mapped search backtracks exponentially (RegexTimeLimitTest's regex) and would run to its
    // own 60 s limit; the outer search's max_time=1 stops the one running and the rest never start
    String inner =
        "| makeresults | eval s=\""
            + "a".repeat(46)
            + "b\" | where match(s, \"^(?<x>(a|aa)+(\\\\1))$\")";
    String query =
        "| makeresults count=3 | map search=\""
            + inner.replace("\\", "\\\\").replace("\"", "\\\"")
            + "\"";
    long started = System.nanoTime();
    HttpResponse<String> response =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(SERVER.server().url() + "/services/search/jobs/export"))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .timeout(java.time.Duration.ofSeconds(120))
                    .POST(
                        java.net.http.HttpRequest.BodyPublishers.ofString(
                            "output_mode=json&max_time=1&search="
                                + java.net.URLEncoder.encode(
                                    query, java.nio.charset.StandardCharsets.UTF_8)))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    java.time.Duration took = java.time.Duration.ofNanos(System.nanoTime() - started);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(took).isLessThan(java.time.Duration.ofSeconds(15));
    assertThat(response.body()).contains("map ran 1 of its 3 searches: the search was stopped");
  }

  private static List<JsonNode> export(String query) throws Exception {
    HttpResponse<String> response = TestServers.export(SERVER.server(), PASSWORD, query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    List<JsonNode> lines = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      if (!line.isBlank()) {
        lines.add(JSON.readTree(line));
      }
    }
    return lines;
  }
}
