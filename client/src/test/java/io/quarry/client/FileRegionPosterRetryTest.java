package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 34): {@link FileRegionPoster} sends a request a second time when the server took
 * it whole and began answering on a reused connection, then the connection broke: the server stored
 * the body and gets it again (a duplicate). A bare HTTP/1.1 peer kept alive ({@link
 * BarePeer#keepAlive}) plays a server that dies mid-answer (no Quarry server can be made to do that
 * on purpose).
 */
class FileRegionPosterRetryTest {
  @TempDir Path directory;

  @Test
  void aRequestWhoseAnswerWasCutIsNotSentAgain() throws Exception {
    try (BarePeer peer = new BarePeer()) {
      // the second request overall gets half an answer, then its connection dies
      peer.keepAlive(
          (request, body) ->
              request == 2
                  ? new BarePeer.Reply("HTTP/1.1 200 OK\r\nContent-Length: 27\r\n\r\n{\"te", true)
                  : BarePeer.Reply.ok("{\"text\":\"Success\",\"code\":0}"));
      Path file = directory.resolve("two.log");
      Files.writeString(file, "first line\nsecond line\n");
      QuarryClient client = QuarryClient.builder(peer.uri()).hecToken("tok").build();
      try (FileChannel channel = FileChannel.open(file)) {
        client.sendRaw(channel, 0, 11, "st", "main", null, "s"); // answered: the connection kept
        try {
          // the server reads the whole request (it stores it), starts the answer and dies
          client.sendRaw(channel, 11, 12, "st", "main", null, "s");
        } catch (QuarryClientException reported) {
          // reporting the failure is right: the checkpoint then leaves the chunk for a re-run
        }
      } finally {
        client.close();
      }
      assertThat(peer.bodies())
          .as("the second request, stored once by the server, must not be sent again")
          .containsExactly("first line\n", "second line\n");
    }
  }
}
