package io.quarry.server.http;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.Search;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;

/**
 * Any well-framed HTTP/1.1 request — a method, a request target, headers and a body of the length
 * it declares, each fuzzed, against every kind of route (HEC, search, jobs, lookups, macros, the
 * UI, Splunk's and the native API) with no, wrong or right credentials — is answered by a real
 * server on 127.0.0.1 with a status line within 30 s, and never with a 5xx other than 503 (a server
 * error is a bug: an exception nobody turned into a typed answer). Runs the saved inputs in {@code
 * HttpLayerFuzzTestInputs} in every build; {@code JAZZER_FUZZ=1 ./mvnw -pl server -am test
 * -Dtest=HttpLayerFuzzTest -Dsurefire.failIfNoSpecifiedTests=false} fuzzes.
 */
class HttpLayerFuzzTest {
  private static final String PASSWORD = "fuzz-pw";
  private static final QuarryServer SERVER;

  static {
    try {
      SERVER =
          TestServers.start(
              Files.createTempDirectory("http-fuzz"),
              PASSWORD,
              settings ->
                  settings.put(
                      "search",
                      new Search(
                          null, 10_000L, 5, null, null, null, 64L << 20, null, null, null, null,
                          null)));
      TestServers.loadRaw(SERVER, "one status=200\ntwo status=500 user=bob\n");
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static final String[] METHODS = {"GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS"};

  private static final String[] PATHS = {
    "/health",
    "/metrics",
    "/",
    "/ui/",
    "/ui/app.js",
    "/api/v1/openapi.json",
    "/api/v1/search",
    "/api/v1/jobs",
    "/api/v1/jobs/",
    "/api/v1/fields",
    "/api/v1/indexes",
    "/api/v1/lookups/",
    "/api/v1/macros/",
    "/api/v1/plugins",
    "/api/v1/sourcetypes",
    "/services/collector/event",
    "/services/collector/raw",
    "/services/collector/health",
    "/services/collector/ack",
    "/services/auth/login",
    "/services/server/info",
    "/services/search/jobs",
    "/services/search/jobs/",
    "/services/search/jobs/export",
    "/services/search/v2/jobs/",
    "/servicesNS/admin/search/search/jobs/export",
    "/services/authentication/httpauth-tokens/",
  };

  private static final String[] AUTHORIZATIONS = {
    null,
    TestServers.basic(PASSWORD),
    TestServers.basic("wrong"),
    "Splunk " + TestServers.TOKEN,
    "Splunk not-a-token",
    "Bearer ",
    "Basic ",
  };

  private static final String[] HEADER_NAMES = {
    "Content-Type",
    "Content-Encoding",
    "Accept",
    "X-Splunk-Request-Channel",
    "Transfer-Encoding",
    "Expect",
    "Cookie",
    "X-Requested-With",
  };

  private static final String[] CONTENT_TYPES = {
    "application/json", "application/x-www-form-urlencoded", "text/plain", "application/csv"
  };

  @AfterAll
  static void close() throws IOException {
    SERVER.close();
  }

  @FuzzTest(maxDuration = "60s")
  void everyFramedRequestIsAnsweredWithoutAServerError(FuzzedDataProvider data) throws IOException {
    String method =
        data.consumeBoolean() ? data.pickValue(METHODS) : token(data.consumeString(8), "GET");
    String target = data.pickValue(PATHS) + targetSafe(data.consumeString(60));
    StringBuilder head = new StringBuilder();
    head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    head.append("Host: 127.0.0.1\r\n");
    String authorization = data.pickValue(AUTHORIZATIONS);
    if (authorization != null) {
      head.append("Authorization: ").append(authorization);
      if (data.consumeBoolean()) {
        head.append(headerSafe(data.consumeString(40)));
      }
      head.append("\r\n");
    }
    head.append("Content-Type: ").append(data.pickValue(CONTENT_TYPES)).append("\r\n");
    int extra = data.consumeInt(0, 4);
    for (int i = 0; i < extra; i++) {
      String name =
          data.consumeBoolean()
              ? data.pickValue(HEADER_NAMES)
              : token(data.consumeString(16), "X-Fuzz");
      if (name.equalsIgnoreCase("Transfer-Encoding") || name.equalsIgnoreCase("Content-Length")) {
        continue; // the body's framing is ours: Content-Length below
      }
      head.append(name).append(": ").append(headerSafe(data.consumeString(60))).append("\r\n");
    }
    byte[] body = data.consumeRemainingAsBytes();
    head.append("Content-Length: ").append(body.length).append("\r\n");
    head.append("Connection: close\r\n\r\n");
    String answer = send(head.toString().getBytes(StandardCharsets.ISO_8859_1), body);
    if (!answer.startsWith("HTTP/1.1 ")) {
      throw new AssertionError("no status line for " + head + " answer: " + answer);
    }
    int status = Integer.parseInt(answer.substring(9, 12));
    if (status >= 500 && status != 503) {
      throw new AssertionError("server error " + status + " for " + head + "\n" + answer);
    }
  }

  /**
   * Writes a request and reads the answer until the server closes the connection. Jazzer's SSRF
   * detector is told that this one connection, the harness's own, is meant.
   */
  private static String send(byte[] head, byte[] body) {
    try (com.code_intelligence.jazzer.api.SilentCloseable meant =
            com.code_intelligence.jazzer.api.BugDetectors.allowNetworkConnections(
                (host, port) -> port == SERVER.port());
        Socket socket = new Socket("127.0.0.1", SERVER.port())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(head);
      out.write(body);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      try {
        for (int n; (n = in.read(buffer)) > 0 && received.size() < (1 << 20); ) {
          received.write(buffer, 0, n);
        }
      } catch (SocketTimeoutException e) {
        throw new AssertionError("no answer within 30 s: " + received);
      } catch (IOException reset) {
        // the server may answer and close while the body is still being sent
      }
      return received.toString(StandardCharsets.ISO_8859_1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What may follow a path in a request line: no spaces, line ends or controls. */
  private static String targetSafe(String text) {
    StringBuilder safe = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c > 0x20 && c < 0x7f) {
        safe.append(c);
      }
    }
    return safe.toString();
  }

  /** A header value: visible ASCII and spaces, no line ends. */
  private static String headerSafe(String text) {
    StringBuilder safe = new StringBuilder();
    for (char c : text.toCharArray()) {
      if (c >= 0x20 && c < 0x7f) {
        safe.append(c);
      }
    }
    return safe.toString();
  }

  /** An HTTP token (method or header name), or {@code fallback} when nothing is left. */
  private static String token(String text, String fallback) {
    StringBuilder safe = new StringBuilder();
    for (char c : text.toCharArray()) {
      if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') {
        safe.append(c);
      }
    }
    return safe.isEmpty() ? fallback : safe.toString();
  }
}
