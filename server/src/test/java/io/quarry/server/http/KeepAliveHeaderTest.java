package io.quarry.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real server tells a client how long a kept connection may sit idle ({@code Keep-Alive:
 * timeout=<server.idleTimeoutSeconds>}, with {@code Connection: keep-alive}) on every answer that
 * leaves the connection open, and says neither on one after which it closes: the client asked
 * {@code Connection: close}, or spoke HTTP/1.0 without keep-alive. Read off a plain socket, header
 * by header.
 */
class KeepAliveHeaderTest {
  @TempDir Path data;

  @Test
  void keptAnswersSayTheIdleTimeoutAndClosingOnesDoNot() throws Exception {
    try (QuarryServer server =
        TestServers.start(data, "pw", settings -> settings.put("server.idleTimeoutSeconds", 7))) {
      URI url = URI.create(server.url());
      try (Socket socket = new Socket(url.getHost(), url.getPort())) {
        InputStream in = new BufferedInputStream(socket.getInputStream());
        OutputStream out = socket.getOutputStream();
        out.write(request("GET /health HTTP/1.1\r\nHost: t\r\n\r\n"));
        String kept = answerHead(in);
        assertThat(kept).startsWith("http/1.1 200").contains("\r\nkeep-alive: timeout=7\r\n");
        assertThat(kept).contains("\r\nconnection: keep-alive\r\n");

        // a HEC answer on the same connection too
        out.write(
            request(
                "POST /services/collector/event HTTP/1.1\r\nHost: t\r\nAuthorization: Splunk "
                    + TestServers.TOKEN
                    + "\r\nContent-Length: 18\r\n\r\n{\"event\":\"kept\"}\r\n"));
        assertThat(answerHead(in)).startsWith("http/1.1 200").contains("keep-alive: timeout=7");

        out.write(request("GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n"));
        String closing = answerHead(in);
        assertThat(closing).startsWith("http/1.1 200").doesNotContain("keep-alive");
        assertThat(in.read()).as("the connection closed after the answer").isEqualTo(-1);
      }
      try (Socket socket = new Socket(url.getHost(), url.getPort())) {
        InputStream in = new BufferedInputStream(socket.getInputStream());
        socket.getOutputStream().write(request("GET /health HTTP/1.0\r\n\r\n"));
        assertThat(answerHead(in)).doesNotContain("keep-alive");
      }
    }
  }

  private static byte[] request(String text) {
    return text.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** Reads an answer: its head, lower-cased, and its body (by Content-Length), which it skips. */
  private static String answerHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new IOException("the answer ended in its head: " + head);
      }
      head.write(b);
    }
    String text = head.toString(StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
    for (String line : text.split("\r\n")) {
      if (line.startsWith("content-length:")) {
        in.readNBytes(Integer.parseInt(line.substring("content-length:".length()).trim()));
      }
    }
    return text;
  }
}
