package io.quarry.server;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
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
}
