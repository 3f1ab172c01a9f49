package io.quarry.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HEC sends of {@link QuarryClient}: envelopes to {@code /services/collector/event} and raw
 * text to {@code /services/collector/raw}, with the client's HEC token, retried on 503/429 after
 * the server's {@code Retry-After}. (Batches sent in the background are {@link HecSender}'s.)
 */
final class HecRequests {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 5;

  private final ClientHttp http;
  private final String token; // null: sends are refused

  HecRequests(ClientHttp http, String token) {
    this.http = http;
    this.token = token;
  }

  /** See {@link QuarryClient#sendEvents}. */
  void events(List<Map<String, Object>> envelopes) {
    StringBuilder body = new StringBuilder();
    try {
      for (Map<String, Object> envelope : envelopes) {
        body.append(JSON.writeValueAsString(envelope)).append('\n');
      }
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("event cannot be written as JSON", e);
    }
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    post("/services/collector/event", new ByteSlicePublisher(bytes, 0, bytes.length));
  }

  /** See {@link QuarryClient#sendRaw(byte[], int, int, String, String, String, String)}. */
  void raw(
      byte[] body,
      int offset,
      int length,
      String sourcetype,
      String index,
      String host,
      String source) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("sourcetype", sourcetype);
    parameters.put("index", index);
    parameters.put("host", host);
    parameters.put("source", source);
    parameters.values().removeIf(v -> v == null);
    post(
        "/services/collector/raw?" + ClientHttp.formEncode(parameters),
        new ByteSlicePublisher(body, offset, length));
  }

  private void post(String path, HttpRequest.BodyPublisher body) {
    if (token == null) {
      throw new IllegalStateException("no HEC token: set one with Builder.hecToken");
    }
    HttpRequest request =
        http.request(path).header("Authorization", "Splunk " + token).POST(body).build();
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      int status = response.statusCode();
      if (status == 200) {
        return;
      }
      if ((status == 503 || status == 429) && attempt < MAX_ATTEMPTS) {
        ClientHttp.sleep(ServerAnswers.retryAfter(response, attempt));
        continue;
      }
      throw ServerAnswers.failure(status, response.body());
    }
  }
}
