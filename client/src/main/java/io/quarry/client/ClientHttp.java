package io.quarry.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The HTTP side of a {@link QuarryClient}: requests against the server's base address with the
 * client's timeout and search credentials, sent once or (idempotent ones) retried while the server
 * cannot be reached or is busy, an unreachable server or an interrupt as a {@link
 * QuarryClientException}.
 */
final class ClientHttp {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI baseUri;
  private final String user;
  private final String password;
  private final String token;
  private final Duration timeout;
  private final int attempts;
  private final Supplier<HttpClient> newClient;
  private volatile HttpClient http; // made on first use: quarry ingest sends files without it
  private volatile boolean closed; // set under this object's monitor

  ClientHttp(
      URI baseUri,
      String user,
      String password,
      String token,
      Duration timeout,
      int attempts,
      Supplier<HttpClient> newClient) {
    this.baseUri = baseUri;
    this.user = user;
    this.password = password;
    this.token = token;
    this.timeout = timeout;
    this.attempts = attempts;
    this.newClient = newClient;
  }

  /** Sends {@code request} without waiting for its answer. */
  <T> CompletableFuture<HttpResponse<T>> sendAsync(
      HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return client().sendAsync(request, handler);
  }

  /** The JSON answer of {@code request}, which must have status {@code expectedStatus}. */
  JsonNode readJson(HttpRequest request, int expectedStatus) {
    HttpResponse<String> response =
        request.method().equals("GET")
            ? sendIdempotent(request)
            : send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != expectedStatus) {
      throw ServerAnswers.failure(response.statusCode(), response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw new QuarryClientException("the server's answer is not JSON: " + e.getMessage(), e);
    }
  }

  /** Waits {@code delay} before a retry; an interrupt fails the call. */
  static void sleep(Duration delay) {
    try {
      Thread.sleep(delay);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QuarryClientException("interrupted while waiting to retry", e);
    }
  }

  /**
   * {@link #sleep}, then fails the call as the client's own failure (not the {@code
   * IllegalStateException} of a call started after {@link #close}) when it was closed meanwhile.
   */
  private void sleepBeforeRetry(Duration delay) {
    sleep(delay);
    if (closed) {
      throw new QuarryClientException("the client was closed while waiting to retry", null);
    }
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(baseUri.resolve(path)).timeout(timeout);
  }

  /**
   * Sends a request that may be repeated: tried again when the server cannot be reached or is busy
   * (503/429), up to the builder's attempts.
   */
  HttpResponse<String> sendIdempotent(HttpRequest request) {
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> response;
      try {
        response = send(request, HttpResponse.BodyHandlers.ofString());
      } catch (QuarryClientException unreachable) {
        if (attempt >= attempts || !(unreachable.getCause() instanceof IOException)) {
          throw unreachable;
        }
        sleepBeforeRetry(Duration.ofMillis(250L << attempt));
        continue;
      }
      int status = response.statusCode();
      if ((status == 503 || status == 429) && attempt < attempts) {
        sleepBeforeRetry(ServerAnswers.retryAfter(response, attempt));
        continue;
      }
      return response;
    }
  }

  <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    try {
      return client().send(request, handler);
    } catch (IOException e) {
      throw unreachable(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QuarryClientException("interrupted", e);
    }
  }

  /**
   * Shuts the JDK client down: requests under way end, no new one is taken, and its connections
   * close once idle (without waiting for them); none is made after this.
   */
  void close() {
    HttpClient client;
    synchronized (this) {
      closed = true;
      client = http;
    }
    if (client != null) {
      client.shutdown();
    }
  }

  /**
   * The JDK client, made on first use: making one costs a tenth of a second of CPU (its selector
   * thread, the default TLS context), which {@code quarry ingest} sending plain files by {@code
   * sendfile} never needs.
   */
  private HttpClient client() {
    if (closed) {
      throw new IllegalStateException("the client is closed");
    }
    HttpClient client = http;
    if (client == null) {
      synchronized (this) {
        client = http;
        if (client == null) {
          if (closed) {
            throw new IllegalStateException("the client is closed");
          }
          client = newClient.get();
          http = client;
        }
      }
    }
    return client;
  }

  /** A request that failed on the network, as the client reports it. */
  QuarryClientException unreachable(IOException e) {
    return new QuarryClientException(
        "cannot reach Quarry at " + baseUri + ": " + (e.getMessage() == null ? e : e.getMessage()),
        e);
  }

  /** The search endpoints' Authorization header: a session key, or a user's Basic credentials. */
  String authorization() {
    if (token != null) {
      return "Bearer " + token;
    }
    if (password == null) {
      throw new IllegalStateException(
          "no search credentials: set them with Builder.credentials, adminPassword or token");
    }
    return basic(user, password);
  }

  private static String basic(String user, String password) {
    return "Basic "
        + Base64.getEncoder()
            .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  /** {@code form} as {@code application/x-www-form-urlencoded}. */
  static String formEncode(Map<String, String> form) {
    StringJoiner joiner = new StringJoiner("&");
    form.forEach(
        (key, value) ->
            joiner.add(
                URLEncoder.encode(key, StandardCharsets.UTF_8)
                    + "="
                    + URLEncoder.encode(value, StandardCharsets.UTF_8)));
    return joiner.toString();
  }
}
