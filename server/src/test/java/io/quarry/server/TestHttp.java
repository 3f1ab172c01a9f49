package io.quarry.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

/**
 * Plain HTTP requests to a test server as any user, with any credentials (or none): what the
 * security tests send, so they see exactly the status, headers and body a client would.
 */
public final class TestHttp {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private final String url;

  public TestHttp(String url) {
    this.url = url;
  }

  public static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** {@link #basic(String, String)} of {@code user:password}. */
  public static String basic(String credentials) {
    int colon = credentials.indexOf(':');
    return basic(credentials.substring(0, colon), credentials.substring(colon + 1));
  }

  public static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /**
   * Sends a request: a body starting with {@code {} is JSON, another one a form (except for PUT);
   * {@code authorization} null sends none. Answers within 60 s or fails.
   */
  public HttpResponse<String> send(String method, String path, String authorization, String body)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(60));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    if (body != null && body.startsWith("{")) {
      request.header("Content-Type", "application/json");
    } else if (body != null && !method.equals("PUT")) {
      request.header("Content-Type", "application/x-www-form-urlencoded");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Runs a search through Splunk's export endpoint; its result lines. */
  public ArrayNode export(String authorization, String query) throws Exception {
    return export(authorization, query, "");
  }

  /**
   * {@link #export} until it answers a row, for up to 5 s: for what the server writes from a queue
   * (the audit trail's events); the last answer, empty if none came.
   */
  public ArrayNode exportEventually(String authorization, String query) throws Exception {
    ArrayNode rows = export(authorization, query);
    for (int i = 0; i < 50 && rows.isEmpty(); i++) {
      Thread.sleep(100);
      rows = export(authorization, query);
    }
    return rows;
  }

  /**
   * Waits until each of {@code queries} answers a row ({@link #export}), asking again every 100 ms
   * for up to 30 s, then fails naming {@code what}: for what the server writes from a queue (the
   * audit trail's events, its own log in {@code _internal}).
   */
  public void awaitRows(String authorization, String what, String... queries) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!answerRows(authorization, queries)) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  private boolean answerRows(String authorization, String... queries) throws Exception {
    for (String query : queries) {
      if (export(authorization, query).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Runs a search through Splunk's export endpoint, which must answer 200: its last result line (an
   * empty object when none came), with every line of the answer, results and messages, under {@code
   * lines}.
   */
  public JsonNode exportLast(String authorization, String query) throws Exception {
    HttpResponse<String> answer =
        send(
            "POST",
            "/services/search/jobs/export",
            authorization,
            "output_mode=json&search=" + encode(query));
    assertThat(answer.statusCode()).as(query + ": " + answer.body()).isEqualTo(200);
    ArrayNode all = JSON.createArrayNode();
    JsonNode result = JSON.createObjectNode();
    for (String line : answer.body().split("\n")) {
      if (!line.isBlank()) {
        JsonNode node = JSON.readTree(line);
        all.add(node);
        if (node.has("result")) {
          result = node.deepCopy();
        }
      }
    }
    ((com.fasterxml.jackson.databind.node.ObjectNode) result).set("lines", all);
    return result;
  }

  /** As above, with more form parameters ({@code &max_time=1}). */
  public ArrayNode export(String authorization, String query, String more) throws Exception {
    HttpResponse<String> answer =
        send(
            "POST",
            "/services/search/jobs/export",
            authorization,
            "output_mode=json&search=" + encode(query) + more);
    if (answer.statusCode() != 200) {
      throw new AssertionError(query + " answered " + answer.statusCode() + ": " + answer.body());
    }
    ArrayNode rows = JSON.createArrayNode();
    for (String line : answer.body().split("\n")) {
      if (!line.isBlank()) {
        JsonNode parsed = JSON.readTree(line);
        if (parsed.has("result")) {
          rows.add(parsed.get("result"));
        }
      }
    }
    return rows;
  }

  public static JsonNode json(String text) throws Exception {
    return JSON.readTree(text);
  }
}
