package io.quarry.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.EOFException;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The HEC sends of {@link QuarryClient}: envelopes to {@code /services/collector/event} and raw
 * text to {@code /services/collector/raw}, with the client's HEC token, retried on 503/429 after
 * the server's {@code Retry-After}; a region of a file to {@code /raw} without copying it where the
 * connection is plain HTTP ({@link FileRegionPoster}). (Batches sent in the background are {@link
 * HecSender}'s.)
 */
final class HecRequests {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 5;

  private final ClientHttp http;
  private final String token; // null: sends are refused
  private final FileRegionPoster files; // null: not plain http

  HecRequests(ClientHttp http, String token, FileRegionPoster files) {
    this.http = http;
    this.token = token;
    this.files = files;
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
    post(rawPath(sourcetype, index, host, source), new ByteSlicePublisher(body, offset, length));
  }

  /**
   * See {@link QuarryClient#sendRaw(FileChannel, long, long, String, String, String, String)}: over
   * plain HTTP by {@code sendfile} ({@link FileRegionPoster}), under TLS read into an array and
   * sent as {@link #raw} sends one.
   */
  void rawFile(
      FileChannel file,
      long position,
      long length,
      String sourcetype,
      String index,
      String host,
      String source) {
    String path = rawPath(sourcetype, index, host, source);
    if (files == null) {
      post(path, new ByteSlicePublisher(read(file, position, length), 0, (int) length));
      return;
    }
    String authorization = authorization();
    for (int attempt = 1; ; attempt++) {
      PlainHttpAnswer answer;
      try {
        answer = files.post(path, authorization, file, position, length);
      } catch (FileRegionPoster.FileEnded e) {
        throw new QuarryClientException("cannot read the file to send: " + e.getMessage(), e);
      } catch (IOException e) {
        throw http.unreachable(e);
      }
      if (!retry(answer.status(), answer.header("retry-after"), answer.body(), attempt)) {
        return;
      }
    }
  }

  private static String rawPath(String sourcetype, String index, String host, String source) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("sourcetype", sourcetype);
    parameters.put("index", index);
    parameters.put("host", host);
    parameters.put("source", source);
    parameters.values().removeIf(v -> v == null);
    return "/services/collector/raw?" + ClientHttp.formEncode(parameters);
  }

  private static byte[] read(FileChannel file, long position, long length) {
    if (length > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("a body of " + length + " bytes is too long");
    }
    ByteBuffer body = ByteBuffer.allocate((int) length);
    try {
      if (!FileReads.readFully(file, position, body)) {
        throw new EOFException(
            "the file ends at " + file.size() + ", before " + (position + length));
      }
    } catch (IOException e) {
      throw new QuarryClientException("cannot read the file to send: " + e.getMessage(), e);
    }
    return body.array();
  }

  private String authorization() {
    if (token == null) {
      throw new IllegalStateException("no HEC token: set one with Builder.hecToken");
    }
    return "Splunk " + token;
  }

  private void post(String path, HttpRequest.BodyPublisher body) {
    HttpRequest request =
        http.request(path).header("Authorization", authorization()).POST(body).build();
    for (int attempt = 1; ; attempt++) {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      String retryAfter = response.headers().firstValue("Retry-After").orElse(null);
      if (!retry(response.statusCode(), retryAfter, response.body(), attempt)) {
        return;
      }
    }
  }

  /**
   * Whether an answer is worth sending the request again for (503/429, after the server's {@code
   * Retry-After}, which this waits out): false for success; a failure for good is thrown.
   */
  private static boolean retry(int status, String retryAfter, String body, int attempt) {
    if (status == 200) {
      return false;
    }
    if ((status == 503 || status == 429) && attempt < MAX_ATTEMPTS) {
      ClientHttp.sleep(ServerAnswers.retryAfter(retryAfter, attempt));
      return true;
    }
    throw ServerAnswers.failure(status, body);
  }
}
