package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.IndexOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's settings as the server's own code resolves the harness's configuration (the server's
 * configuration loader, a bucket made by the build's event store): what the ingest record holds
 * instead of {@code default}. (The shape of a real store, now asked of the server: {@link
 * StoreShapeTest}.)
 */
class IngestSettingsTest {
  @TempDir Path workDir;

  @AfterEach
  void clear() {
    System.clearProperty("quarry.storage.termFilters");
  }

  private static String config(String format, Integer blockEvents, String compression) {
    return ServerConfigFile.text(
        1, Path.of("/nowhere/data"), format, blockEvents, compression, false);
  }

  @Test
  void settingsGivenAreTheServersSettings() throws Exception {
    IngestSettings settings = IngestSettings.resolve(config("blocks", 512, "lz4"), "main", workDir);
    assertThat(settings.format()).isEqualTo("blocks");
    assertThat(settings.blockEvents()).isEqualTo(512);
    assertThat(settings.journalCompression()).isEqualTo("lz4");
    assertThat(settings.layout()).startsWith("blocks");
    // the scratch store is gone
    try (var left = Files.list(workDir)) {
      assertThat(left).isEmpty();
    }
  }

  @Test
  void settingsNotGivenAreNamedAsTheServerResolvesThem() throws Exception {
    IngestSettings settings = IngestSettings.resolve(config("blocks", null, null), "main", workDir);
    assertThat(settings.blockEvents()).isEqualTo(IndexOptions.DEFAULT_BLOCK_EVENTS);
    assertThat(settings.journalCompression()).isNotEqualTo("default").isNotBlank();
    assertThat(settings.layout()).matches("blocks [23]");
  }

  @Test
  void theLayoutFollowsTheTermFiltersProperty() throws Exception {
    System.setProperty("quarry.storage.termFilters", "false");
    assertThat(IngestSettings.resolve(config("blocks", null, null), "main", workDir).layout())
        .isEqualTo("blocks 2");
    System.setProperty("quarry.storage.termFilters", "true");
    assertThat(IngestSettings.resolve(config("blocks", null, null), "main", workDir).layout())
        .isEqualTo("blocks 3");
    assertThat(IngestSettings.resolve(config("events", null, null), "main", workDir).layout())
        .isEqualTo("events");
  }
}
