package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * {@link PlainHttpAnswer} reads the answers {@link FileRegionPoster} gets: by length, chunked, up
 * to the connection's end, after interim answers, two in a row off one kept connection.
 */
class PlainHttpAnswerTest {
  private static InputStream bytes(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
  }

  @Test
  void answersInARowOffOneConnection() throws Exception {
    InputStream in =
        bytes(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nContent-Length: 27\r\n\r\n"
                + "{\"text\":\"Success\",\"code\":0}"
                + "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\nTransfer-Encoding:"
                + " chunked\r\n\r\n5\r\nbusy \r\n3;ext=1\r\nnow\r\n0\r\nTrailer: x\r\n\r\n"
                + "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 403 Forbidden\r\nConnection: close\r\n"
                + "\r\n{\"text\":\"Invalid token\",\"code\":4}");
    PlainHttpAnswer ok = PlainHttpAnswer.read(in);
    assertThat(ok.status()).isEqualTo(200);
    assertThat(ok.body()).isEqualTo("{\"text\":\"Success\",\"code\":0}");
    assertThat(ok.reusable()).isTrue();

    PlainHttpAnswer busy = PlainHttpAnswer.read(in);
    assertThat(busy.status()).isEqualTo(503);
    assertThat(busy.header("retry-after")).isEqualTo("1");
    assertThat(busy.body()).isEqualTo("busy now");
    assertThat(busy.reusable()).isTrue();

    PlainHttpAnswer refused = PlainHttpAnswer.read(in);
    assertThat(refused.status()).as("after the interim 100").isEqualTo(403);
    assertThat(refused.body()).isEqualTo("{\"text\":\"Invalid token\",\"code\":4}");
    assertThat(refused.reusable()).isFalse();
  }

  @Test
  void aClosedOrCutAnswerIsAnError() {
    assertThatThrownBy(() -> PlainHttpAnswer.read(bytes(""))).isInstanceOf(EOFException.class);
    assertThatThrownBy(
            () -> PlainHttpAnswer.read(bytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")))
        .isInstanceOf(EOFException.class);
    assertThatThrownBy(() -> PlainHttpAnswer.read(bytes("SSH-2.0-OpenSSH\r\n\r\n")))
        .hasMessageContaining("not an HTTP/1.x status line");
  }
}
