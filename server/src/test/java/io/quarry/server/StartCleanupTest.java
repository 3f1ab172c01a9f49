package io.quarry.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.config.QuarryConfig;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A start that fails after NodeStores opened the stores closes them again: the data directory is
 * free for the next start. QuarryServer.start's cleanup catches only InterruptedException and
 * RuntimeException, and UserDirectory.open / RoleDirectory.open throw IOException (a users.json
 * that is not JSON), so the event and metric stores, the internal and audit logs stay open and the
 * data directory stays locked.
 */
class StartCleanupTest {
  @TempDir Path dataDirectory;

  @Test
  void aStartThatFailsAfterTheStoresOpenedLeavesTheDataDirectoryFree() throws Exception {
    Path users = dataDirectory.resolve("users.json");
    Files.createDirectories(dataDirectory);
    Files.writeString(users, "not json");
    assertThatThrownBy(
            () ->
                QuarryServer.start(
                    TestServers.settings(dataDirectory, "pw").build(), Clock.systemUTC()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("users.json");
    Files.delete(users);
    try (QuarryServer server =
        QuarryServer.start(TestServers.settings(dataDirectory, "pw").build(), Clock.systemUTC())) {
      // started: the failed start gave the data directory back
    }
  }

  /**
   * The metric store failing to open (a file where its index directory belongs) closes the event
   * store again: the metric store's failure is thrown and the data directory is free.
   */
  @Test
  void aMetricStoreThatCannotOpenClosesTheEventStore() throws Exception {
    QuarryConfig config =
        TestServers.settings(dataDirectory, "pw")
            .put("indexes", List.of("main", "cpu"))
            .put("storage.indexes", Map.of("cpu", Map.of("datatype", "metric")))
            .build();
    Path blocking = dataDirectory.resolve("indexes").resolve("cpu");
    Files.createDirectories(blocking.getParent());
    Files.writeString(blocking, "not a directory");
    assertThatThrownBy(
            () ->
                NodeStores.open(
                    config, dataDirectory, config.compiledSourcetypes(), Clock.systemUTC()))
        .isInstanceOf(FileAlreadyExistsException.class);
    Files.delete(blocking);
    NodeStores stores =
        NodeStores.open(config, dataDirectory, config.compiledSourcetypes(), Clock.systemUTC());
    stores.metrics().close();
    stores.events().close();
  }

  /**
   * A failed start closes each thing it opened even when a close before it fails; that close's
   * failure is suppressed in the start's, which stays the one thrown.
   */
  @Test
  void aFailingCloseAfterAFailedStartIsSuppressedAndTheRestStillClose() {
    IOException start = new IOException("metric store");
    IOException closing = new IOException("event store close");
    List<String> closed = new ArrayList<>();
    FailedStart.close(
        start,
        () -> {
          closed.add("first");
          throw closing;
        },
        null,
        () -> closed.add("second"));
    assertThat(closed).containsExactly("first", "second");
    assertThat(start.getSuppressed()).containsExactly(closing);
  }
}
