package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.lucene.util.IOUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code maxAge} alone needs no bucket's bytes ({@link Retention}): a warm bucket past it is
 * deleted without its directory being read — seen here with a bucket whose directory is already
 * gone from disk (removed by hand while the store ran), which age retention still drops from the
 * index rather than failing on the listing; {@code maxTotalBytes}, which needs the bytes, is what
 * reads them.
 */
class RetentionMaxAgeTest {
  @TempDir Path live;

  @Test
  void ageRetentionReadsNoDirectoryEvenOfTheBucketsItDeletes() throws Exception {
    // the scheduled commit runs retention too, first a commitInterval after open: a day, so only
    // the test's own applyRetention() call below drops the bucket (and its count is the test's)
    IndexOptions aged =
        IndexOptions.builder()
            .maxAge(Optional.of(Duration.ofDays(1)))
            .commitInterval(Duration.ofDays(1))
            .build();
    assertThat(aged.maxTotalBytes()).isEmpty();
    try (EventStore store = EventStore.open(live, Map.of("main", aged))) {
      IndexStore index = store.index("main");
      store.write("main", events(0, 10)); // 1970: far past a day old
      index.rollHotBucket();
      store.write("main", events(100, 10));
      assertThat(index.buckets()).extracting(BucketInfo::state).containsExactly("warm", "hot");
      long warm = index.buckets().get(0).id();
      IOUtils.rm(index.bucketPath(warm)); // gone from disk under the running store
      assertThat(Files.exists(index.bucketPath(warm))).isFalse();

      assertThat(index.applyRetention()).isEqualTo(1);
      assertThat(index.buckets()).extracting(BucketInfo::state).containsExactly("hot");
    }
  }
}
