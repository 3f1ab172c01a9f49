package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The JDK {@code HttpClient} path (searches, listings, events; raw bodies over TLS) when a kept
 * connection is closed unanswered once the peer read a request — what a request that raced a
 * server's close of an idle connection sees. Quarry does not give this path {@link
 * FileRegionPoster}'s 500 ms idle limit: the JDK's pool cannot be steered connection by connection,
 * and its one knob, {@code jdk.httpclient.keepalive.timeout}, is a JVM-wide property in whole
 * seconds, read once, that a library must not set for its application. What holds instead, pinned
 * here: a {@code GET} is answered all the same (sent again on a new connection — the JDK retries an
 * idempotent request whose reused connection ended before any answer byte, and {@code
 * ClientHttp.sendIdempotent} would); a {@code POST} is reported failed and never sent twice (the
 * server may have stored it). With the defaults the race does not arise: the JDK drops a connection
 * idle 30 s, the server keeps one 60 s ({@code server.idleTimeoutSeconds}).
 */
class JdkClientConnectionCloseTest {
  private static final String INDEXES = "{\"indexes\":[],\"metricIndexes\":[]}";
  private static final String SUCCESS = "{\"text\":\"Success\",\"code\":0}";

  @Test
  void aGetIsSentAgainOnANewConnection() throws Exception {
    try (BarePeer peer = new BarePeer()) {
      peer.keepAlive(
          (request, body) ->
              request == 2 ? BarePeer.Reply.closeUnanswered() : BarePeer.Reply.ok(INDEXES));
      try (QuarryClient client = QuarryClient.builder(peer.uri()).adminPassword("pw").build()) {
        assertThat(client.indexes()).isEmpty();
        assertThat(client.indexes()).as("answered on a new connection").isEmpty();
      }
      assertThat(peer.bodies()).hasSize(3);
      assertThat(peer.connections()).isEqualTo(2);
    }
  }

  @Test
  void aPostIsReportedAndNeverSentTwice() throws Exception {
    try (BarePeer peer = new BarePeer()) {
      peer.keepAlive(
          (request, body) ->
              request == 2 ? BarePeer.Reply.closeUnanswered() : BarePeer.Reply.ok(SUCCESS));
      try (QuarryClient client = QuarryClient.builder(peer.uri()).hecToken("tok").build()) {
        client.sendEvents(List.of(Map.of("event", "first")));
        assertThatThrownBy(() -> client.sendEvents(List.of(Map.of("event", "second"))))
            .isInstanceOf(QuarryClientException.class);
        Thread.sleep(300); // a resend would have arrived by now
      }
      assertThat(peer.bodies()).hasSize(2);
      assertThat(peer.bodies().get(1)).contains("second");
    }
  }
}
