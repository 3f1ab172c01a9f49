package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A hot bucket's flushed segments are written as their own files, not packed into a compound file
 * afterwards (session 48: the copy wrote every byte of a young segment twice on the ingest path);
 * {@link HotBucketConfig#COMPOUND_FLUSHES_PROPERTY} packs them again, for A/B runs. The bucket's
 * bytes by kind read the same either way.
 */
class FlushedSegmentFilesTest {
  @RegisterExtension final StoreFixture stores = new StoreFixture();

  private static IndexOptions options() {
    return IndexOptions.builder()
        .maxBucketEvents(1_000_000)
        .maxHotAge(Duration.ofHours(1))
        .format(BucketFormat.BLOCKS)
        .compaction(new CompactionSettings(true, Duration.ofDays(1), 1L << 40))
        .build();
  }

  @Test
  void flushedSegmentsAreNotCompoundFiles() throws Exception {
    try (IndexStore index = stores.open("main", options(), 1)) {
      StoreFixture.fill(index, 0, 6_000); // three commits: three flushed segments
      assertThat(segmentFiles("main")).as("the flushed segments' own files").isNotEmpty();
      assertThat(segmentFiles("main"))
          .as("no flushed segment packed into a compound file")
          .noneMatch(name -> name.endsWith(".cfs") || name.endsWith(".cfe"));
      assertThat(index.bytesByKind().get(FileKinds.JOURNAL)).isPositive();
      assertThat(index.count()).isEqualTo(6_000);
    }
  }

  @Test
  void theDeveloperSwitchPacksThemAgainAndTheirBytesByKindReadAlike() throws Exception {
    java.util.Map<String, Long> own;
    try (IndexStore index = stores.open("own", options(), 1)) {
      StoreFixture.fill(index, 0, 6_000);
      own = index.bytesByKind();
    }
    System.setProperty(HotBucketConfig.COMPOUND_FLUSHES_PROPERTY, "true");
    try (IndexStore index = stores.open("packed", options(), 1)) {
      StoreFixture.fill(index, 0, 6_000);
      assertThat(segmentFiles("packed")).anyMatch(name -> name.endsWith(".cfs"));
      java.util.Map<String, Long> packed = index.bytesByKind();
      for (String kind : own.keySet()) {
        if (!kind.equals(FileKinds.OTHER)) { // the compound files' own headers are "other"
          assertThat(packed.get(kind)).as(kind).isEqualTo(own.get(kind));
        }
      }
      assertThat(index.count()).isEqualTo(6_000);
    } finally {
      System.clearProperty(HotBucketConfig.COMPOUND_FLUSHES_PROPERTY);
    }
  }

  /** The names of the files of every bucket of index {@code name}. */
  private List<String> segmentFiles(String name) throws IOException {
    Path buckets = stores.data().resolve(name);
    try (Stream<Path> files = Files.walk(buckets)) {
      return files.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).toList();
    }
  }
}
