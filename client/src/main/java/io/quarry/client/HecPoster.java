package io.quarry.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.zip.GZIPOutputStream;

/**
 * Posts batches of {@link HecSender}: one request to {@code /services/collector/event} per batch,
 * gzip-compressed if asked, retried on 503/429 after the server's {@code Retry-After} and on
 * connection errors with backoff; with a channel (indexer acknowledgement), confirmed through
 * {@code /services/collector/ack} before it counts as sent.
 */
final class HecPoster {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 8;

  private final URI baseUri;
  private final String token;
  private final boolean gzip;
  private final String channel; // null: no indexer acknowledgement
  private final HttpClient http;

  HecPoster(
      URI baseUri,
      String token,
      boolean gzip,
      String channel,
      javax.net.ssl.SSLContext sslContext) {
    this.baseUri = baseUri;
    this.token = token;
    this.gzip = gzip;
    this.channel = channel;
    HttpClient.Builder http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
    if (sslContext != null) {
      http.sslContext(sslContext);
    }
    this.http = http.build();
  }

  /** Shuts the JDK client down (its selector thread and idle connections): no post follows. */
  void close() {
    http.shutdownNow();
  }

  /**
   * Posts one batch (its events' JSON, one after another), retrying what may succeed later.
   *
   * @throws QuarryClientException when the server refuses it for good or stays unreachable
   */
  void post(byte[] json) throws IOException, InterruptedException {
    byte[] payload = gzip ? gzip(json) : json;
    for (int attempt = 1; ; attempt++) {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(baseUri.resolve("/services/collector/event"))
              .timeout(Duration.ofSeconds(60))
              .header("Authorization", "Splunk " + token)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(payload));
      if (gzip) {
        request.header("Content-Encoding", "gzip");
      }
      if (channel != null) {
        request.header("X-Splunk-Request-Channel", channel);
      }
      HttpResponse<String> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      } catch (IOException e) {
        if (attempt >= MAX_ATTEMPTS) {
          throw new QuarryClientException("cannot reach " + baseUri + ": " + e.getMessage(), e);
        }
        Thread.sleep(Math.min(30_000, 250L << attempt));
        continue;
      }
      int status = response.statusCode();
      if (status == 200) {
        if (channel != null) {
          awaitAck(JSON.readTree(response.body()).path("ackId").asLong());
        }
        return;
      }
      if ((status == 503 || status == 429) && attempt < MAX_ATTEMPTS) {
        Thread.sleep(ServerAnswers.retryAfter(response, attempt));
        continue;
      }
      throw ServerAnswers.failure(status, response.body());
    }
  }

  /** Polls {@code /services/collector/ack} until the batch is confirmed (bounded). */
  private void awaitAck(long ackId) throws IOException, InterruptedException {
    for (int attempt = 0; attempt < 100; attempt++) {
      HttpRequest request =
          HttpRequest.newBuilder(baseUri.resolve("/services/collector/ack?channel=" + channel))
              .header("Authorization", "Splunk " + token)
              .POST(HttpRequest.BodyPublishers.ofString("{\"acks\":[" + ackId + "]}"))
              .build();
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw ServerAnswers.failure(response.statusCode(), response.body());
      }
      JsonNode acks = JSON.readTree(response.body()).path("acks");
      if (acks.path(Long.toString(ackId)).asBoolean()) {
        return;
      }
      Thread.sleep(100);
    }
    throw new QuarryClientException("ackId " + ackId + " was not confirmed in 10 s", null);
  }

  private static byte[] gzip(byte[] bytes) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4 + 64);
    try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
      zip.write(bytes);
    }
    return out.toByteArray();
  }
}
