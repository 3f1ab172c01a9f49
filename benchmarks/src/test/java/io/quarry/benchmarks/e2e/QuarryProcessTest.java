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
class QuarryProcessTest {
  @TempDir Path directory;

  @AfterEach
  void clear() {
    System.clearProperty("quarry.storage.compaction.mode");
    System.clearProperty("quarry.storage.compaction.idleMillis");
  }

  @Test
  void compactionPropertiesReachTheServersConfiguration() throws Exception {
    assertThat(QuarryProcess.compactionSettings()).isEmpty();
    System.setProperty("quarry.storage.compaction.mode", "inline");
    System.setProperty("quarry.storage.compaction.idleMillis", "2000");
    Path file = directory.resolve("quarry.yml");
    Files.writeString(file, "storage:" + QuarryProcess.compactionSettings() + "\n");
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    CompactionSettings compaction = config.storage().options("main").compaction();
    assertThat(compaction.deferred()).isFalse();
    assertThat(compaction.idle()).isEqualTo(Duration.ofSeconds(2));
    assertThat(compaction.idleMinBytes()).isEqualTo(CompactionSettings.DEFAULT_IDLE_MIN_BYTES);
  }

  @Test
  void compilationTimeIsSummedOverCompilersOfTheMetricsPage() throws Exception {
    String page =
        """
        # HELP jvm_compilation_time_ms_total The approximate accumulated elapsed time spent in compilation
        # TYPE jvm_compilation_time_ms_total counter
        jvm_compilation_time_ms_total{compiler="HotSpot 64-Bit Tiered Compilers"} 1234.0
        jvm_gc_pause_seconds_count{action="end of minor GC"} 3
        """;
    assertThat(QuarryProcess.compilationMillis(page)).isEqualTo(1234);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> QuarryProcess.compilationMillis("jvm_threads_live_threads 12.0\n"))
        .isInstanceOf(java.io.IOException.class);
  }
}
