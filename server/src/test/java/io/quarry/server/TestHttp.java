package io.quarry.server;

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
