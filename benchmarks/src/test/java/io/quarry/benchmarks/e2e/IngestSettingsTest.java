package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's settings as the server's own code resolves the harness's configuration (the server's
 * configuration loader, a bucket made by the build's event store), and the shape of a real store
 * read from its directory: what the ingest record holds instead of {@code default}.
 */
class IngestSettingsTest {
  @TempDir Path workDir;

  @AfterEach
  void clear() {
    System.clearProperty("quarry.storage.termFilters");
  }

  private static String config(String format, Integer blockEvents, String compression) {
    return QuarryProcess.config(
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

  @Test
  void theShapeOfARealStore() throws Exception {
    Path data = workDir.resolve("data");
    IndexOptions options =
        IndexOptions.builder().format(io.quarry.codecs.store.BucketFormat.BLOCKS).build();
    try (EventStore store = EventStore.open(data, Map.of("main", options))) {
      // two commits of events: two segments (no merge policy joins two small ones at once)
      for (int batch = 0; batch < 2; batch++) {
        List<Event> events = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
          events.add(
              new Event(
                  1_000_000L * (batch * 3000 + i),
                  "event " + i + " of batch " + batch,
                  "h",
                  "s",
                  "st",
                  Map.of()));
        }
        store.index("main").add(events);
        store.index("main").commit();
      }
    }
    StoreShape shape = StoreShape.read(data.resolve("indexes").resolve("main"));
    assertThat(shape.buckets()).hasSize(1);
    StoreShape.Bucket bucket = shape.buckets().getFirst();
    assertThat(bucket.layout()).matches("blocks [23]");
    assertThat(bucket.segments()).isBetween(1, 2);
    // 6000 events in blocks of at most 1024: at least 6 block documents
    assertThat(bucket.documents()).isBetween(6L, 6000L);
    assertThat(shape.layouts()).isEqualTo(bucket.layout());
    assertThat(shape.describe()).startsWith("bucket 1 (" + bucket.layout() + "): ");
    assertThat(shape.report()).singleElement().extracting(m -> m.get("segments")).isNotNull();
  }
}
