package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * An idle compaction is committed as soon as it ended ({@link IndexCommits#commitCompacted}), so
 * the fast segments it replaced leave the disk then, not at the next commit interval: the index's
 * commits here are an hour apart (the test's), and before session 39 the bucket's last commit kept
 * naming its fast segments — their files stayed beside the compact ones while the index reported
 * itself settled (the e2e harness measured 0.350 bytes per raw byte at 2M instead of ~0.17).
 */
class CompactionCommitTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aFinishedCompactionIsCommittedAndItsFastSegmentsLeaveTheDisk(BucketFormat format)
      throws Exception {
    CompactionSettings compaction = new CompactionSettings(true, Duration.ofMillis(300), 1L << 40);
    try (IndexStore store =
        DeferredCompactionTest.open(data, scheduler, format, compaction, FSDirectory::open)) {
      DeferredCompactionTest.addSegments(store); // five fast segments, each committed
      Path bucket = onlyBucket();

      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (!(store.compaction().compactions() > 0 && store.compaction().settled())
          && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(store.compaction().settled()).as("%s", store.compaction()).isTrue();

      // the scheduler's next look (every second) commits it; allow a few
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      // every segment compact: under load the 300 ms idle time can pass between two of the five
      // adds, and two idle compactions leave two compact segments
      while (committedLevels(bucket).contains("fast") && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(committedLevels(bucket))
          .as("the last commit's segments")
          .isNotEmpty()
          .allMatch("compact"::equals);
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!strayFiles(bucket).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(strayFiles(bucket)).as("files no commit names").isEmpty();

      Map<String, Integer> found = StoredRaws.of(store);
      assertThat(found).hasSize(10_000);
      assertThat(found.values()).allMatch(count -> count == 1);
    }
  }

  private Path onlyBucket() throws Exception {
    try (Stream<Path> buckets = Files.list(data.resolve("main").resolve("buckets"))) {
      List<Path> all = buckets.filter(Files::isDirectory).toList();
      assertThat(all).hasSize(1);
      return all.getFirst();
    }
  }

  /** "compact" or "fast" for each segment of the bucket's last commit on disk. */
  private static List<String> committedLevels(Path bucket) throws Exception {
    try (Directory directory = FSDirectory.open(bucket)) {
      SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
      return infos.asList().stream()
          .map(s -> JournalStoredFieldsFormat.isCompact(s.info) ? "compact" : "fast")
          .toList();
    }
  }

  /** Lucene files in the bucket's directory that its last commit does not name. */
  private static Set<String> strayFiles(Path bucket) throws Exception {
    try (Directory directory = FSDirectory.open(bucket)) {
      SegmentInfos infos = SegmentInfos.readLatestCommit(directory);
      Set<String> named = new HashSet<>(infos.files(true));
      for (SegmentCommitInfo segment : infos) {
        named.addAll(segment.files());
      }
      Set<String> stray = new HashSet<>();
      for (String file : directory.listAll()) {
        if (!named.contains(file)
            && !file.equals(IndexWriter.WRITE_LOCK_NAME)
            && file.startsWith("_")) { // Lucene's segment files; the bucket's own files aside
          stray.add(file);
        }
      }
      return stray;
    }
  }
}
