package io.quarry.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that start a large streamed search and never read it hold every general worker; HEC and
 * /health still answer at once (their own lane), and once the write timeout passes the stalled
 * clients are disconnected and searches run again.
 */
class SlowReaderIsolationTest {
  private static final String PASSWORD = "slow-pw";
  private static final int GENERAL_WORKERS = 2;
  private static final int WRITE_TIMEOUT_SECONDS = 2;

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final List<Socket> stalled = new ArrayList<>();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            PASSWORD,
            settings ->
                settings
                    .put("server.workerThreads", GENERAL_WORKERS)
                    .put("server.ingestWorkerThreads", 2)
                    .put("server.writeTimeoutSeconds", WRITE_TIMEOUT_SECONDS));
  }

  @AfterEach
  void stop() throws Exception {
    for (Socket socket : stalled) {
      socket.close();
    }
    server.close();
  }

  @Test
  void stalledSearchClientsCannotStopIngestOrHealth() throws Exception {
    // far more than the socket buffers hold: each search blocks its worker on the first full write
    String search = "| makeresults count=1000000 | eval pad=\"" + "x".repeat(200) + "\"";
    String body = "output_mode=json&search=" + URLEncoder.encode(search, StandardCharsets.UTF_8);
    for (int i = 0; i < GENERAL_WORKERS * 3; i++) {
      Socket socket = new Socket("127.0.0.1", server.port());
      socket.setReceiveBufferSize(4096);
      stalled.add(socket);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST /services/search/jobs/export HTTP/1.1\r\nHost: x\r\nAuthorization: "
                  + TestServers.basic(PASSWORD)
                  + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                  + body.length()
                  + "\r\n\r\n"
                  + body)
              .getBytes(StandardCharsets.UTF_8));
      out.flush(); // and never read a byte
    }
    Thread.sleep(500); // the searches start and fill their connections

    long started = System.nanoTime();
    HttpResponse<String> hec =
        TestServers.postRaw(
            server, TestServers.TOKEN, "generic_single_line", "accepted while stalled\n");
    assertThat(hec.statusCode()).as(hec.body()).isEqualTo(200);
    HttpResponse<String> health =
        http.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/health"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("ingest and health answered while every search worker was stalled")
        .isLessThan(Duration.ofSeconds(5));

    // the stalled clients are cut off after the write timeout, so searching works again
    HttpResponse<String> searched = null;
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      searched = TestServers.export(server, PASSWORD, "\"accepted while stalled\" | stats count");
      if (searched.statusCode() == 200) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(searched).isNotNull();
    assertThat(searched.statusCode()).as(searched.body()).isEqualTo(200);
    assertThat(searched.body()).contains("\"count\":\"1\"");
  }
}
