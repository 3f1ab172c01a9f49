package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.CompactionSettings;
import io.quarry.server.config.ConfigLoader;
import io.quarry.server.config.QuarryConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness's {@code -Dquarry.storage.compaction.<key>} properties become the server's {@code
 * storage.compaction} settings: the storage lines it writes load through the server's own config
 * loader into the index's options.
 */
class ServerConfigFileTest {
  @TempDir Path directory;

  @AfterEach
  void clear() {
    System.clearProperty("quarry.storage.compaction.mode");
    System.clearProperty("quarry.storage.compaction.idleMillis");
  }

  @Test
  void compactionPropertiesReachTheServersConfiguration() throws Exception {
    assertThat(ServerConfigFile.compactionSettings()).isEmpty();
    System.setProperty("quarry.storage.compaction.mode", "inline");
    System.setProperty("quarry.storage.compaction.idleMillis", "2000");
    Path file = directory.resolve("quarry.yml");
    Files.writeString(file, "storage:" + ServerConfigFile.compactionSettings() + "\n");
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    CompactionSettings compaction = config.storage().options("main").compaction();
    assertThat(compaction.deferred()).isFalse();
    assertThat(compaction.idle()).isEqualTo(Duration.ofSeconds(2));
    assertThat(compaction.idleMinBytes()).isEqualTo(CompactionSettings.DEFAULT_IDLE_MIN_BYTES);
  }
}
