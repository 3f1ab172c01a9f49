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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Idle connections, requests trickled a byte at a time and too many connections are cut off. */
class ConnectionGuardTest {
  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final List<Socket> sockets = new ArrayList<>();

  private void start(int idleSeconds, int requestReadSeconds, int maxConnections) throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            "guard-pw",
            settings ->
                settings
                    .put("server.idleTimeoutSeconds", idleSeconds)
                    .put("server.requestReadTimeoutSeconds", requestReadSeconds)
                    .put("server.maxConnections", maxConnections));
  }

  @AfterEach
  void stop() throws Exception {
    for (Socket socket : sockets) {
      socket.close();
    }
    server.close();
  }

  @Test
  void aSilentConnectionIsClosedAfterTheIdleTimeout() throws Exception {
    start(1, 60, 100);
    Socket silent = connect();
    long started = System.nanoTime();
    assertThat(closedWithin(silent, Duration.ofSeconds(10))).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .isBetween(Duration.ofMillis(800), Duration.ofSeconds(5));
    // keep-alive requests on one connection are not cut: each answer restarts the idle clock
    HttpClient client = HttpClient.newHttpClient();
    for (int i = 0; i < 3; i++) {
      HttpResponse<String> health =
          client.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/health")).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      Thread.sleep(300);
    }
  }

  @Test
  void aRequestTrickledAByteAtATimeIsCutOff() throws Exception {
    start(60, 2, 100);
    Socket slow = connect();
    OutputStream out = slow.getOutputStream();
    byte[] request =
        "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);
    long started = System.nanoTime();
    boolean cut = false;
    try {
      for (byte b : request) {
        out.write(b);
        out.flush();
        Thread.sleep(200); // 70 bytes over 14 s, well past the 2 s allowed
        if (System.nanoTime() - started > Duration.ofSeconds(8).toNanos()) {
          break;
        }
      }
    } catch (java.io.IOException closed) {
      cut = true;
    }
    cut = cut || closedWithin(slow, Duration.ofSeconds(5));
    assertThat(cut).as("the trickled request's connection was closed").isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(9));
  }

  @Test
  void connectionsBeyondTheCapAreClosedAtOnce() throws Exception {
    start(60, 60, 5);
    for (int i = 0; i < 5; i++) {
      connect();
    }
    Thread.sleep(200);
    Socket extra = connect();
    assertThat(closedWithin(extra, Duration.ofSeconds(3))).isTrue();
    sockets.remove(0).close(); // one slot frees up
    Thread.sleep(300);
    Socket again = connect();
    again
        .getOutputStream()
        .write("GET /health HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
    again.setSoTimeout(3_000);
    byte[] answer = new byte[64];
    int n = again.getInputStream().read(answer);
    assertThat(new String(answer, 0, Math.max(n, 0), StandardCharsets.US_ASCII))
        .startsWith("HTTP/1.1 200");
  }

  private Socket connect() throws Exception {
    Socket socket = new Socket("127.0.0.1", server.port());
    sockets.add(socket);
    return socket;
  }

  /**
   * Whether the server closes {@code socket} within {@code limit} (reading returns end of stream).
   */
  private static boolean closedWithin(Socket socket, Duration limit) throws Exception {
    socket.setSoTimeout((int) limit.toMillis());
    InputStream in = socket.getInputStream();
    try {
      return in.read() < 0;
    } catch (SocketTimeoutException stillOpen) {
      return false;
    } catch (java.net.SocketException reset) {
      return true;
    }
  }
}
