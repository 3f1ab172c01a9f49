package io.quarry.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests a client can send but that make no sense get a 400 with a JSON error naming what is
 * wrong, never a 500, a hang or a closed connection; the server answers normally afterwards.
 */
class MalformedRequestTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "malformed-pw";

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void aBadEscapeInThePathIsA400() throws Exception {
    for (String target : new String[] {"/%zz", "/api/v1/jobs/%zz", "/%", "/api/v1/%e2%82"}) {
      String response = rawRequest("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n");
      assertThat(response).as(target).startsWith("HTTP/1.1 400");
      assertThat(response).as(target).contains("\"code\":\"BAD_REQUEST\"").contains("Malformed");
    }
    assertHealthy();
  }

  @Test
  void aMalformedContentLengthIsA400() throws Exception {
    String response =
        rawRequest(
            "POST /services/collector/raw HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n");
    assertThat(response).startsWith("HTTP/1.1 400");
    assertHealthy();
  }

  @Test
  void threePipelinedRequestsAreAllAnsweredInOrder() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(5_000);
      String one = "GET /health HTTP/1.1\r\nHost: x\r\n\r\n";
      socket.getOutputStream().write((one + one + one).getBytes(StandardCharsets.UTF_8));
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      while (received.toString(StandardCharsets.UTF_8).split("HTTP/1.1 200", -1).length < 4) {
        int n = in.read(buffer);
        if (n < 0) {
          break;
        }
        received.write(buffer, 0, n);
      }
      assertThat(received.toString(StandardCharsets.UTF_8).split("HTTP/1.1 200", -1))
          .as("three answers")
          .hasSize(4);
    }
  }

  @Test
  void aBadEscapeInTheQueryStringIsA400() throws Exception {
    String response = rawRequest("GET /health?x=%zz HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(response).startsWith("HTTP/1.1 400").contains("Malformed request URI");
  }

  @Test
  void aBadEscapeInAFormBodyIsA400() throws Exception {
    String body = "output_mode=json&search=%zz";
    String response =
        rawRequest(
            "POST /services/search/jobs/export HTTP/1.1\r\nHost: x\r\n"
                + "Authorization: "
                + TestServers.basic(PASSWORD)
                + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                + body.length()
                + "\r\n\r\n"
                + body);
    assertThat(response).startsWith("HTTP/1.1 400").contains("Malformed form body");
  }

  @Test
  void anEscapedSlashStaysInsideItsPathSegment() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs/a%2Fb%2525"))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).contains("a/b%25"); // decoded once, not twice
  }

  @Test
  void fiftyThousandNestedParenthesesAreAParseError() throws Exception {
    String deep = "(".repeat(50_000) + "a" + ")".repeat(50_000);
    for (String query :
        new String[] {
          "search " + deep,
          "| makeresults | eval x=" + deep,
          "search " + "NOT ".repeat(50_000) + "a"
        }) {
      HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
      assertThat(response.statusCode()).as(query.substring(0, 30)).isEqualTo(400);
      assertThat(response.body()).contains("nests deeper than 100 levels");
    }
    assertHealthy();
  }

  @Test
  void aLookupNameThatIsAPathIsAParseError() throws Exception {
    for (String query :
        new String[] {
          "| makeresults | outputlookup ../x.csv",
          "| inputlookup ../../etc/passwd",
          "| makeresults | lookup .hidden a"
        }) {
      HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
      assertThat(response.statusCode()).as(query).isEqualTo(400);
      assertThat(response.body()).as(query).contains("cannot name a lookup table");
    }
    assertThat(dataDirectory.resolve("x.csv")).doesNotExist();
  }

  private void assertHealthy() throws Exception {
    HttpResponse<String> health =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/health")).build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(health.body());
    assertThat(body.get("status").asText()).isEqualTo("ok");
  }

  /**
   * Sends bytes as they are (HttpClient refuses a malformed URI) and reads until the server closes
   * or 5 s pass.
   */
  private String rawRequest(String request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", server.port())) {
      socket.setSoTimeout(5_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream received = new ByteArrayOutputStream();
      byte[] buffer = new byte[8192];
      try {
        int n;
        while ((n = in.read(buffer)) > 0) {
          received.write(buffer, 0, n);
          if (received.toString(StandardCharsets.UTF_8).contains("}")) {
            break; // a complete JSON error body
          }
        }
      } catch (java.net.SocketTimeoutException e) {
        // whatever arrived is the answer; an empty one fails the caller's assertion
      }
      return received.toString(StandardCharsets.UTF_8);
    }
  }
}
