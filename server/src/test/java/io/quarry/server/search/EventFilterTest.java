package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-event filter of a search whose index query is not exact ({@link EventFilter}: words on
 * the visited event's raw text, field comparisons over the source's page), in each form it takes,
 * over an index of blocks (every search checked per event) and one of events (a search-time field
 * checked per event), on one real server: eight events whose answers are counted by hand below.
 */
class EventFilterTest {
  private static final String PASSWORD = "event-filter-password";
  private static final String TOKEN = "event-filter-token";

  // 2026-01-07T10:00:0Ns is 1767780000 + N
  private static final String EVENTS =
      """
      2026-01-07T10:00:01Z level=INFO user=ann code=200 ip=10.0.0.5 msg="started ok"
      2026-01-07T10:00:02Z level=ERROR user=bob code=500 ip=10.0.1.7 msg="disk full"
      2026-01-07T10:00:03Z level=WARN user=cat code=404 ip=10.0.0.9 msg=timeout
      2026-01-07T10:00:04Z level=ERROR user=ann code=503 ip=192.168.1.1 msg=timeout
      2026-01-07T10:00:05Z level=INFO user=dan code=200 ip=10.0.0.200 msg="disk full soon"
      2026-01-07T10:00:06Z level=ERROR user=bob code=404 ip=10.0.2.1 msg=refused
      2026-01-07T10:00:07Z level=INFO user=ann user=eve code=301 msg=moved
      2026-01-07T10:00:08Z level=DEBUG msg="nothing here"
      """;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    for (String index : List.of("ev", "bl")) {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              server.url()
                                  + "/services/collector/raw?sourcetype=app&index="
                                  + index))
                      .header("Authorization", "Splunk " + TOKEN)
                      .POST(HttpRequest.BodyPublishers.ofString(EVENTS))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    }
  }

  /** The answer's rows, each its fields' values joined by {@code |} in the answer's order. */
  private static List<String> rows(String query) throws Exception {
    List<String> rows = new ArrayList<>();
    for (JsonNode result : io.quarry.server.TestServers.exportRows(server, PASSWORD, query)) {
      List<String> values = new ArrayList<>();
      result
          .properties()
          .forEach(
              field -> {
                if (!field.getKey().startsWith("_") || field.getKey().equals("_time")) {
                  values.add(
                      field.getValue().isArray()
                          ? field.getValue().toString()
                          : field.getValue().asText());
                }
              });
      rows.add(String.join("|", values));
    }
    return rows;
  }

  private static void answers(String search, String... expected) throws Exception {
    for (String index : List.of("bl", "ev")) {
      assertThat(rows("search index=" + index + " sourcetype=app " + search))
          .as("%s over %s", search, index)
          .containsExactly(expected);
    }
  }

  @Test
  void wordsAloneDecideAsTheEventIsVisited() throws Exception {
    answers("ERROR | stats count", "3");
    answers("\"disk full\" | stats count", "2");
    answers("timeout NOT ERROR | stats count", "1");
    answers("TERM(10.0.0.9) | stats count", "1");
    answers("CASE(error) | stats count", "0");
    answers("tim* | stats count", "2");
  }

  @Test
  void wordsAndFieldsTogether() throws Exception {
    answers("ERROR code>=500 | stats count", "2"); // 2 and 4; 6 is a 404
    answers("(timeout OR code=404) | stats count", "3"); // 3, 4, 6
    answers("NOT ERROR user=ann | stats count", "2"); // 1 and 7
    answers("(refused OR code=200) | stats count", "3"); // 6 by its word; 1 and 5 by the field
    answers("timeout user=cat | stats count", "1");
    answers("ERROR NOT (code=404 OR user=bob) | stats count", "1"); // 4
  }

  @Test
  void fieldComparisonsOverThePage() throws Exception {
    answers("NOT code=200 | stats count", "6"); // the event without a code too
    answers("code!=200 | stats count", "5"); // != needs the field
    answers("ip=10.0.0.0/24 | stats count", "3"); // 1, 3, 5
    answers("user=a* | stats count", "3"); // 1, 4, 7
    answers("user IN (bob, eve) | stats count", "3"); // 2, 6, 7
    answers("user=eve | stats count", "1"); // one of two values
    answers("_time>=1767780005 | stats count", "4"); // 5 to 8
    answers("code<300 | stats count by user", "ann|1", "dan|1");
  }

  @Test
  void theFilterReadsTheEventsOwnValueWhereAFusedRexSetsTheField() throws Exception {
    answers("code=404 | rex \"code=(?<code>\\d)\" | stats count by code", "4|2");
  }

  @Test
  void eventsInTimeOrder() throws Exception {
    answers("ERROR code>=500 | table user code", "ann|503", "bob|500");
    answers("(timeout OR code=404) | head 2 | table user", "bob", "ann");
    answers("code>=300 | head 1 | table user", "[\"ann\",\"eve\"]"); // 7, two values
    answers("ERROR code=404 | table msg", "refused");
  }

  @Test
  void anEventListingKeepsOnlyTheMatchingEvents() throws Exception {
    for (String index : List.of("bl", "ev")) {
      String body =
          io.quarry.server.TestServers.export(
                  server, PASSWORD, "search index=" + index + " sourcetype=app ERROR code=404")
              .body();
      assertThat(body).as(index).contains("msg=refused").doesNotContain("timeout");
      assertThat(body.split("\"result\"").length - 1).as(index).isEqualTo(1);
    }
  }
}
