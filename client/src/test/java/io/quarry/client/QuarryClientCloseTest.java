package io.quarry.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link QuarryClient#close}: the connection a file region went on by {@code sendfile}, kept open
 * for the next one, is closed (the server sees its end) and no call is taken after. A {@link
 * BarePeer} answers one request and then watches its connection.
 */
class QuarryClientCloseTest {
  @TempDir Path directory;

  @Test
  void closeClosesTheIdleSendfileConnection() throws Exception {
    Path file = directory.resolve("one.log");
    Files.writeString(file, "one line\n");
    try (BarePeer peer = new BarePeer()) {
      CompletableFuture<String> afterAnswer =
          peer.serveOne(
              (socket, in) -> {
                BarePeer.write(socket, BarePeer.OK_EMPTY_OBJECT); // keep-alive
                return BarePeer.whatFollows(in); // "the end" when the client closes
              });
      QuarryClient client = QuarryClient.builder(peer.uri()).hecToken("tok").build();
      try (FileChannel channel = FileChannel.open(file)) {
        client.sendRaw(channel, 0, Files.size(file), "st", "main", null, "s");
        Thread.sleep(300);
        assertThat(afterAnswer).as("the connection is kept for the next region").isNotDone();
        client.close();
        assertThat(afterAnswer.get(5, TimeUnit.SECONDS))
            .as("what the server read after its answer")
            .isEqualTo("the end");
        assertThatThrownBy(() -> client.sendRaw(channel, 0, 1, "st", "main", null, "s"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("closed");
        assertThatThrownBy(() -> client.search("x")).isInstanceOf(IllegalStateException.class);
      }
    }
  }
}
