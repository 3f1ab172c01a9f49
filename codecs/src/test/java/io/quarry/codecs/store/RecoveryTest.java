package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Recovery from a copy of the data directory taken while a store is running (a crash image), bucket
 * rolls, retention and damage, for both bucket formats (reopened with the default format
 * configured, as after a configuration change: a bucket keeps the format it was written in).
 */
class RecoveryTest {
  @TempDir Path live;
  @TempDir Path image;

  static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path file : files.toList()) {
        Path target = to.resolve(from.relativize(file).toString());
        if (Files.isDirectory(file)) {
          Files.createDirectories(target);
        } else if (!file.getFileName().toString().equals("write.lock")) {
          Files.copy(file, target);
        }
      }
    }
  }

  private static ScanStats scanAll(EventStore store, List<String> raws) throws IOException {
    return store.scan(
        List.of("main"),
        new MatchAllDocsQuery(),
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        e -> raws.add(e.event().raw()));
  }

  private static ScanStats pullAll(EventStore store, List<String> raws) throws IOException {
    java.util.concurrent.ExecutorService pool =
        java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      return Scans.pullEach(
          store,
          "main",
          () ->
              e -> {
                synchronized (raws) {
                  raws.add(e.event().raw());
                }
                return true;
              },
          cursor -> {
            while (cursor.advance(3)) {
              // three events at a time
            }
          },
          pool);
    } finally {
      pool.shutdown();
    }
  }

  static List<String> raws(EventStore store) throws IOException {
    List<String> raws = new ArrayList<>();
    scanAll(store, raws);
    return raws;
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void eventsOnlyInTheLogAreReplayedAndSearchable(BucketFormat format) throws IOException {
    IndexOptions slow =
        IndexOptions.builder().commitInterval(Duration.ofHours(1)).format(format).build();
    try (EventStore store = EventStore.open(live, Map.of("main", slow))) {
      store.write("main", events(0, 5));
      store.index("main").commit();
      store.write("main", events(5, 3));
      copy(live, image);
    }
    try (EventStore recovered = EventStore.open(image, List.of("main"))) {
      assertThat(raws(recovered)).hasSize(8).contains("event 7", "event 0");
      assertThat(recovered.index("main").count()).isEqualTo(8L);
    }
    try (EventStore again = EventStore.open(image, List.of("main"))) {
      assertThat(raws(again)).as("replayed exactly once").hasSize(8);
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void rolledBucketsAreSkippedByTimeAndRetentionDropsTheOldest(BucketFormat format)
      throws IOException {
    try (EventStore store =
        EventStore.open(live, Map.of("main", IndexOptions.builder().format(format).build()))) {
      IndexStore index = store.index("main");
      store.write("main", events(0, 10));
      index.rollHotBucket();
      store.write("main", events(100, 10));
      index.rollHotBucket();
      store.write("main", events(200, 10));
      assertThat(index.buckets())
          .extracting(BucketInfo::state)
          .containsExactly("warm", "warm", "hot");
      ScanStats stats =
          store.scan(List.of("main"), new MatchAllDocsQuery(), 100_000, 110_000, e -> true);
      assertThat(stats.buckets()).isEqualTo(1);
      assertThat(stats.bucketsSkipped()).isEqualTo(2);
      assertThat(stats.eventsRead()).isEqualTo(10);
      assertThat(raws(store)).hasSize(30);
    }
    IndexOptions small =
        IndexOptions.builder()
            .maxAge(java.util.Optional.empty())
            .maxTotalBytes(java.util.Optional.of(1L))
            .build();
    try (EventStore store = EventStore.open(live, Map.of("main", small))) {
      assertThat(store.index("main").applyRetention()).isEqualTo(2);
      assertThat(raws(store)).hasSize(10).allMatch(raw -> raw.startsWith("event 2"));
    }
  }

  static Stream<org.junit.jupiter.params.provider.Arguments> formatsAndScans() {
    return Stream.of(BucketFormat.values())
        .flatMap(
            f ->
                Stream.of(
                    org.junit.jupiter.params.provider.Arguments.of(f, false),
                    org.junit.jupiter.params.provider.Arguments.of(f, true)));
  }

  /**
   * The damaged bucket met by the time-ordered scan, or by a parallel scan whose slices are pulled
   * a few events at a time by a reader that rethrows what the cursor throws unchecked (as a
   * driver's source operator does).
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.MethodSource("formatsAndScans")
  void aFlippedBitInAJournalBlockQuarantinesThatBucketOnly(BucketFormat format, boolean pulled)
      throws IOException {
    IndexOptions plain =
        IndexOptions.builder()
            .journalCompression(io.quarry.codecs.journal.JournalCompression.NONE)
            .format(format)
            .build();
    try (EventStore store = EventStore.open(live, Map.of("main", plain))) {
      store.write("main", events(0, 10));
      store.index("main").rollHotBucket();
      store.write("main", events(100, 10));
    }
    Path damaged = null;
    try (Stream<Path> files = Files.walk(live.resolve("indexes/main/buckets/1"))) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        byte[] bytes = Files.readAllBytes(file);
        int at = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1).indexOf("event 3");
        if (at >= 0) {
          bytes[at + 6] ^= 0x01;
          Files.write(file, bytes);
          damaged = file;
        }
      }
    }
    assertThat(damaged).as("a journal file holding the raw text").isNotNull();
    List<Fsck.BucketCheck> checks = Fsck.check(live, false);
    assertThat(checks)
        .extracting(Fsck.BucketCheck::bucket, Fsck.BucketCheck::clean)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("1", false),
            org.assertj.core.groups.Tuple.tuple("2", true));
    try (EventStore store = EventStore.open(live, Map.of("main", plain))) {
      List<String> raws = new ArrayList<>();
      ScanStats stats = pulled ? pullAll(store, raws) : scanAll(store, raws);
      assertThat(stats.warnings()).singleElement().asString().contains("bucket 1 is damaged");
      assertThat(raws).contains("event 100", "event 109").noneMatch(raw -> raw.equals("event 3"));
      assertThat(store.index("main").quarantinedBuckets()).isEqualTo(1);
      assertThat(Files.exists(live.resolve("indexes/main/quarantine/1"))).isTrue();
      store.write("main", events(200, 1));
    }
    try (EventStore store = EventStore.open(live, Map.of("main", plain))) {
      assertThat(raws(store)).hasSize(11);
    }
  }
}
