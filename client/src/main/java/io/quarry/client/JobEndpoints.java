package io.quarry.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The search-job endpoints ({@code /api/v1/jobs}) behind {@link QuarryClient#submit} and {@link
 * SearchJob}: start a job, read its status, results and inspection, steer and delete it.
 */
final class JobEndpoints {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ClientHttp http;

  JobEndpoints(ClientHttp http) {
    this.http = http;
  }

  /** Starts a job for a search body ({@link SearchRequests#body}); returns its handle. */
  SearchJob submit(Map<String, Object> body) {
    try {
      HttpRequest request =
          http.request("/api/v1/jobs")
              .header("Authorization", http.authorization())
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
              .build();
      return new SearchJob(this, http.readJson(request, 201).get("id").asText());
    } catch (JsonProcessingException e) {
      throw new QuarryClientException("cannot encode the job request: " + e.getMessage(), e);
    }
  }

  JobStatus status(String id) {
    return ServerAnswers.jobStatus(http.readJson(request(id, "").GET().build(), 200));
  }

  JobStatus action(String id, String action) {
    return ServerAnswers.jobStatus(
        http.readJson(
            request(id, "/" + action).POST(HttpRequest.BodyPublishers.noBody()).build(), 200));
  }

  void delete(String id) {
    http.readJson(request(id, "").DELETE().build(), 200);
  }

  String get(String id, String suffix) {
    return http.readJson(request(id, suffix).GET().build(), 200).toPrettyString();
  }

  TypedResults results(String id, long offset, long count) {
    JsonNode page =
        http.readJson(
            request(id, "/results?offset=" + offset + "&count=" + count).GET().build(), 200);
    return TypedResults.fromJson(
        page,
        page.path("offset").asLong(),
        page.path("total").asLong(),
        page.path("preview").asBoolean());
  }

  private HttpRequest.Builder request(String id, String suffix) {
    return http.request("/api/v1/jobs/" + URLEncoder.encode(id, StandardCharsets.UTF_8) + suffix)
        .header("Authorization", http.authorization());
  }
}
