package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's {@code adhoc_search_level} on {@code POST /services/search/jobs} and its export ({@link
 * SearchLevel}), over a real server and HTTP: {@code verbose} and {@code smart} list every field of
 * each event, its search-time {@code key=value} pairs included; {@code fast}, and a request without
 * the parameter, the plain listing (default and index-time fields); any other value is a 400. Two
 * events: {@code n=2} has {@code level=WARN n=2} as text and {@code zone=z2} at index time, {@code
 * n=1} {@code level=INFO n=1 user=ann} as text. Before session 39 the parameter was ignored
 * (verbose listed no search-time field).
 */
class SearchLevelTest {
  private static final String PASSWORD = "searchlevel-pw";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DEFAULTS =
      List.of("_raw", "_time", "host", "index", "source", "sourcetype");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory, PASSWORD);
    TestServers.postEvents(
        server,
        TestServers.TOKEN,
        "{\"time\":1767225601,\"host\":\"h\",\"sourcetype\":\"app\",\"event\":\"level=INFO n=1"
            + " user=ann\"}\n"
            + "{\"time\":1767225602,\"host\":\"h\",\"sourcetype\":\"app\",\"event\":\"level=WARN"
            + " n=2\",\"fields\":{\"zone\":\"z2\"}}\n");
  }

  private static final List<String> EVERY_FIELD = List.of("level n zone", "level n user");
  private static final List<String> PLAIN = List.of("zone", "");

  private static HttpResponse<String> post(String path, Map<String, String> form) throws Exception {
    String body =
        form.entrySet().stream()
            .map(e -> e.getKey() + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
            .collect(Collectors.joining("&"));
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", TestServers.basic(PASSWORD))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** Each result's fields besides the default ones, space-separated in name order. */
  private static List<String> fields(Iterable<JsonNode> results) {
    List<String> rows = new ArrayList<>();
    for (JsonNode result : results) {
      TreeSet<String> names = new TreeSet<>();
      result.fieldNames().forEachRemaining(names::add);
      names.removeAll(DEFAULTS);
      rows.add(String.join(" ", names));
    }
    return rows;
  }

  /** The fields of a oneshot job's results, {@code level} its search level (null: none sent). */
  private static List<String> oneshot(String query, String level) throws Exception {
    Map<String, String> form =
        new java.util.LinkedHashMap<>(
            Map.of("search", query, "exec_mode", "oneshot", "output_mode", "json"));
    if (level != null) {
      form.put("adhoc_search_level", level);
    }
    HttpResponse<String> response = post("/services/search/jobs", form);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return fields(JSON.readTree(response.body()).get("results"));
  }

  @Test
  void verboseAndSmartListEveryFieldOfTheEvents() throws Exception {
    assertThat(oneshot("search index=main", "verbose")).isEqualTo(EVERY_FIELD);
    assertThat(oneshot("search index=main", "Smart")).isEqualTo(EVERY_FIELD);
    // a command's fields besides them
    assertThat(oneshot("search index=main | eval k=1", "verbose"))
        .containsExactly("k level n zone", "k level n user");
  }

  @Test
  void verboseReachesTheListingAfterAPluginCommandOverTheEvents() throws Exception {
    // fast: each row what it listed before and the fields the command wrote (mend21: verbose
    // listed the same before)
    assertThat(oneshot("search index=main | mvexpand level", "fast"))
        .containsExactly("level zone", "level");
    assertThat(oneshot("search index=main | mvexpand level", "verbose")).isEqualTo(EVERY_FIELD);
    assertThat(oneshot("search index=main | replace INFO WITH I", "smart")).isEqualTo(EVERY_FIELD);
    assertThat(oneshot("search index=main | fillnull value=0 zone | eval k=1", "verbose"))
        .containsExactly("k level n zone", "k level n user zone");
  }

  @Test
  void verboseReachesTheListingAfterAWildcardRename() throws Exception {
    // a renamed row lists every field it can yield, in every mode
    List<String> renamed = List.of("Lel n zone", "Lel n user");
    assertThat(oneshot("search index=main | rename lev* AS L*", "fast")).isEqualTo(renamed);
    assertThat(oneshot("search index=main | rename lev* AS L*", "verbose")).isEqualTo(renamed);
    // and a plugin command after it (one chain of runs): verbose lists every field still
    assertThat(oneshot("search index=main | rename lev* AS L* | mvexpand n", "verbose"))
        .isEqualTo(renamed);
  }

  @Test
  void verboseReachesTheEventsAmongAnAppendsRows() throws Exception {
    // fast: n=2 lists its index-time zone only, the appended n=1 what a subsearch's event holds
    assertThat(oneshot("search index=main n=2 | append [search index=main n=1]", "fast"))
        .containsExactly("zone", "level n user");
    assertThat(oneshot("search index=main n=2 | append [search index=main n=1]", "verbose"))
        .isEqualTo(EVERY_FIELD);
  }

  @Test
  void fastOrNoneListsThePlainListing() throws Exception {
    assertThat(oneshot("search index=main", "fast")).isEqualTo(PLAIN);
    assertThat(oneshot("search index=main", null)).isEqualTo(PLAIN);
  }

  @Test
  void aTransformingSearchAnswersTheSameInEveryMode() throws Exception {
    for (String level : new String[] {"fast", "smart", "verbose"}) {
      assertThat(oneshot("search index=main | stats count by level", level))
          .as(level)
          .containsExactly("count level", "count level");
    }
  }

  @Test
  void anAsynchronousJobKeepsItsLevel() throws Exception {
    HttpResponse<String> created =
        post(
            "/services/search/jobs",
            Map.of(
                "search", "search index=main",
                "exec_mode", "blocking",
                "output_mode", "json",
                "adhoc_search_level", "verbose"));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String sid = JSON.readTree(created.body()).get("sid").asText();
    HttpResponse<String> results =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create(
                            server.url()
                                + "/services/search/jobs/"
                                + sid
                                + "/results?output_mode=json&count=0"))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .GET()
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(results.statusCode()).as(results.body()).isEqualTo(200);
    assertThat(fields(JSON.readTree(results.body()).get("results"))).isEqualTo(EVERY_FIELD);
  }

  @Test
  void theExportTakesItToo() throws Exception {
    for (String level : new String[] {"verbose", "fast"}) {
      HttpResponse<String> response =
          post(
              "/services/search/jobs/export",
              Map.of(
                  "search",
                  "search index=main",
                  "output_mode",
                  "json",
                  "adhoc_search_level",
                  level));
      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      List<JsonNode> results = new ArrayList<>();
      for (String line : response.body().split("\n")) {
        JsonNode row = line.isBlank() ? null : JSON.readTree(line);
        if (row != null && row.has("result")) {
          results.add(row.get("result"));
        }
      }
      assertThat(fields(results)).as(level).isEqualTo(level.equals("fast") ? PLAIN : EVERY_FIELD);
    }
  }

  @Test
  void aLevelWithSpacesAroundItOrInAnyCaseIsTakenNotRefused() throws Exception {
    assertThat(oneshot("search index=main", " Verbose ")).isEqualTo(EVERY_FIELD);
    assertThat(oneshot("search index=main", "SMART\t")).isEqualTo(EVERY_FIELD);
    assertThat(oneshot("search index=main", " fast")).isEqualTo(PLAIN);
    assertThat(oneshot("search index=main", "FAST ")).isEqualTo(PLAIN);
  }

  @Test
  void anyOtherLevelIsRefused() throws Exception {
    for (String path : new String[] {"/services/search/jobs", "/services/search/jobs/export"}) {
      HttpResponse<String> response =
          post(
              path,
              Map.of(
                  "search", "search index=main",
                  "exec_mode", "oneshot",
                  "output_mode", "json",
                  "adhoc_search_level", "thorough"));
      assertThat(response.statusCode()).as(path).isEqualTo(400);
      assertThat(response.body()).as(path).contains("adhoc_search_level");
    }
  }
}
