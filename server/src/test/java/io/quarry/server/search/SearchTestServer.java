package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.PrometheusText;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigBuilder;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A real server for a search test, searched as admin: started on a temporary directory and a free
 * port of 127.0.0.1 ({@link TestServers}), loaded through HEC, searched over HTTP through Splunk's
 * export endpoint (or through the engine, for a search's {@link SearchStats}), its answer read as
 * rows. A test class holds one in a static {@code @AutoClose} field set in its {@code @BeforeAll}.
 */
final class SearchTestServer implements AutoCloseable {
  private final QuarryServer server;
  private final String password;

  /** Searches {@code server} (closed with this) as admin with {@code password}. */
  SearchTestServer(QuarryServer server, String password) {
    this.server = server;
    this.password = password;
  }

  /**
   * A server with its data in {@code root/data}, HEC token {@link TestServers#TOKEN} writing index
   * {@code main}, and what {@code settings} changes or adds.
   */
  static SearchTestServer start(Path root, String password, UnaryOperator<ConfigBuilder> settings)
      throws Exception {
    return new SearchTestServer(
        TestServers.start(root.resolve("data"), password, settings), password);
  }

  /**
   * As {@link #start}, each search allowed {@code bytes} of memory ({@code search.maxMemoryBytes}):
   * the failure tests' 2 MiB, which 200,000 distinct groups do not fit.
   */
  static SearchTestServer startWithSearchMemory(Path root, String password, long bytes)
      throws Exception {
    return start(root, password, settings -> settings.put("search.maxMemoryBytes", bytes));
  }

  QuarryServer server() {
    return server;
  }

  /** Sends lines through HEC's raw endpoint under {@code sourcetype}; fails unless answered 200. */
  void loadRaw(String sourcetype, String lines) throws Exception {
    HttpResponse<String> loaded = TestServers.postRaw(server, TestServers.TOKEN, sourcetype, lines);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  /** Sends HEC envelopes with {@code token}; fails unless answered 200. */
  void postEvents(String token, String envelopes) throws Exception {
    TestServers.postEvents(server, token, envelopes);
  }

  /** Waits (polling for up to 20 s) until {@code index} holds {@code events} searchable events. */
  void awaitCount(String index, long events) throws Exception {
    TestServers.awaitCount(server, password, index, events, 400);
  }

  /** The export endpoint's answer (JSON lines) to {@code query}, whatever its status. */
  HttpResponse<String> export(String query) throws Exception {
    return export(query, null);
  }

  /** As {@link #export(String)}, stopped after {@code maxTime} seconds (null: no limit). */
  HttpResponse<String> export(String query, String maxTime) throws Exception {
    String form =
        "output_mode=json&search="
            + URLEncoder.encode(query, StandardCharsets.UTF_8)
            + (maxTime == null ? "" : "&max_time=" + maxTime);
    return send(
        request("/services/search/jobs/export")
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form)));
  }

  /** The export's answer to {@code query}, which must be answered (200): its body. */
  String search(String query) throws Exception {
    HttpResponse<String> answer = export(query);
    assertThat(answer.statusCode()).as(query + ": " + answer.body()).isEqualTo(200);
    return answer.body();
  }

  /** The results of {@link #search}, in order, each its JSON. */
  List<JsonNode> results(String query) throws Exception {
    return TestServers.exportRows(server, password, query);
  }

  /**
   * The results of {@link #search} by their {@code key}'s value, each written as {@code "f=v"} of
   * {@code fields} in that order, space-separated (a missing field's value empty): for comparing an
   * aggregation's answer with one computed in the test.
   */
  Map<String, String> resultsBy(String query, String key, String... fields) throws Exception {
    Map<String, String> rows = new TreeMap<>();
    for (JsonNode result : results(query)) {
      StringBuilder row = new StringBuilder();
      for (String field : fields) {
        row.append(row.isEmpty() ? "" : " ").append(field).append('=');
        row.append(result.path(field).asText());
      }
      String previous = rows.put(result.path(key).asText(), row.toString());
      assertThat(previous).as("%s: a second result of %s %s", query, key, result).isNull();
    }
    return rows;
  }

  /** Runs {@code query} through the engine (no HTTP), its pages dropped: what the search did. */
  SearchStats run(String query) throws Exception {
    return server.search().run(query, server.search().plan(query, null, null), page -> {});
  }

  /** What the engine's plan of {@code query} shows ({@code explain}). */
  Map<String, Object> explain(String query) throws Exception {
    return server.search().explain(server.search().plan(query, null, null));
  }

  /** A request to {@code path} of the server (sent as admin by {@link #send}). */
  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(server.url() + path));
  }

  /** Sends {@code request} as admin: the answer, whatever its status. */
  HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      return http.send(
          request.header("Authorization", TestServers.basic(password)).build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }

  /** {@code GET path} as admin: the answer, whatever its status. */
  HttpResponse<String> get(String path) throws Exception {
    return send(request(path));
  }

  /**
   * {@code POST path} of a JSON body as admin (a job: {@code /api/v1/jobs}), whatever its status.
   */
  HttpResponse<String> postJson(String path, String json) throws Exception {
    return send(
        request(path)
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  /** The server's {@code /metrics}. */
  PrometheusText scrape() throws Exception {
    return PrometheusText.scrape(server, password);
  }

  @Override
  public void close() throws Exception {
    server.close();
  }
}
