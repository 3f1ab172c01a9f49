package io.quarry.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Uploads that stall half-way hold no more than the in-flight budget: bytes are counted as they
 * arrive, the upload that would pass the budget is answered 503 at once (not after its 60 MB came),
 * and when the stalled clients go away their bytes are free again.
 */
class BodyBudgetTest {
  private static final long BUDGET = 8L << 20;
  private static final int UPLOADS = 6;
  private static final int SENT_BEFORE_STALLING = 3 << 20;

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final List<Socket> uploads = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            "budget-pw",
            settings -> settings.put("server.maxInFlightBytes", BUDGET));
  }

  @AfterEach
  void stop() throws Exception {
    for (Socket socket : uploads) {
      socket.close();
    }
    server.close();
  }

  @Test
  void stalledUploadsAreRefusedOnceTheirBytesPassTheBudget() throws Exception {
    byte[] chunk = "x".repeat(SENT_BEFORE_STALLING).getBytes(StandardCharsets.US_ASCII);
    int refused = 0;
    for (int i = 0; i < UPLOADS; i++) {
      Socket socket = new Socket("127.0.0.1", server.port());
      socket.setSoTimeout(2_000);
      uploads.add(socket);
      OutputStream out = socket.getOutputStream();
      // a 60 MB body announced, 3 MB of it sent, then nothing
      out.write(
          ("POST /services/collector/raw HTTP/1.1\r\nHost: x\r\nAuthorization: Splunk "
                  + TestServers.TOKEN
                  + "\r\nContent-Length: 60000000\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      try {
        out.write(chunk);
        out.flush();
      } catch (java.io.IOException closedByServer) {
        // the server answered and stopped reading: what it answered is read below
      }
      if (answer(socket).startsWith("HTTP/1.1 503")) {
        refused++;
      }
    }
    long heldAtMost = BUDGET / SENT_BEFORE_STALLING;
    assertThat(refused)
        .as("uploads beyond the %s-byte budget are refused while they upload", BUDGET)
        .isGreaterThanOrEqualTo(UPLOADS - (int) heldAtMost);

    HttpResponse<String> health = get("/health");
    assertThat(health.statusCode()).isEqualTo(200);

    for (Socket socket : uploads) {
      socket.close();
    }
    uploads.clear();
    // the stalled bodies' bytes are released when their connections close
    HttpResponse<String> hec = null;
    for (int attempt = 0; attempt < 50; attempt++) {
      hec = TestServers.postRaw(server, TestServers.TOKEN, "generic_single_line", "after\n");
      if (hec.statusCode() == 200) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(hec.statusCode()).as(hec.body()).isEqualTo(200);
    // and a body of most of the budget is taken in one piece again
    String large = ("line of text\n").repeat((int) (BUDGET / 2 / 13));
    HttpResponse<String> big =
        TestServers.postRaw(server, TestServers.TOKEN, "generic_single_line", large);
    assertThat(big.statusCode()).as(big.body()).isEqualTo(200);
  }

  @Test
  void anUploadWithoutCredentialsIsRefusedBeforeItsBodyIsRead() throws Exception {
    for (String[] request :
        new String[][] {
          {"/services/collector/raw", "\"code\":2"}, {"/api/v1/search", "UNAUTHORIZED"}
        }) {
      Socket socket = new Socket("127.0.0.1", server.port());
      socket.setSoTimeout(5_000);
      uploads.add(socket);
      socket
          .getOutputStream()
          .write(
              ("POST " + request[0] + " HTTP/1.1\r\nHost: x\r\nContent-Length: 60000000\r\n\r\n")
                  .getBytes(StandardCharsets.US_ASCII));
      // not a byte of the body sent: the answer comes from the headers alone
      String answer = answer(socket);
      assertThat(answer).as(request[0]).startsWith("HTTP/1.1 401").contains(request[1]);
    }
  }

  private static String answer(Socket socket) throws Exception {
    InputStream in = socket.getInputStream();
    byte[] buffer = new byte[4096];
    try {
      int n = in.read(buffer);
      return n <= 0 ? "" : new String(buffer, 0, n, StandardCharsets.US_ASCII);
    } catch (SocketTimeoutException | java.net.SocketException none) {
      return "";
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + path)).build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
