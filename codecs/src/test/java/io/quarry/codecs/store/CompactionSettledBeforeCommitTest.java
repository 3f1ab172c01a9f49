package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Review (session 39, lane compact): the compaction status must not say "settled" while the commit
 * that drops the segments an idle compaction replaced ({@link IndexCommits#commitCompacted}) has
 * not happened: the e2e harness measures the store's bytes as soon as the index says it is settled,
 * and a commit after a large compaction fsyncs the whole compact segment (seconds at 10M). Here the
 * commit's fsync is held: while it is, the last commit still names the fast segments.
 */
class CompactionSettledBeforeCommitTest {
  @TempDir Path data;

  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void notSettledWhileTheCompactionIsUncommitted(BucketFormat format) throws Exception {
    AtomicBoolean armed = new AtomicBoolean();
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CompactionSettings compaction = new CompactionSettings(true, Duration.ofMillis(300), 1L << 40);
    try (IndexStore store =
        DeferredCompactionTest.open(
            data,
            scheduler,
            format,
            compaction,
            FaultyDirectories.holdingSyncs(armed, entered, release))) {
      try {
        DeferredCompactionTest.addSegments(store); // five fast segments, each committed
        armed.set(true); // the next commit is the one after the idle compaction
        assertThat(entered.await(60, TimeUnit.SECONDS)).as("the commit after it").isTrue();
        assertThat(store.compaction().compactions()).isPositive();
        assertThat(committedLevels(onlyBucket()))
            .as("the last commit on disk while its successor waits")
            .contains("fast");
        assertThat(store.compaction().settled())
            .as(
                "settled while the last commit names the replaced fast segments: %s",
                store.compaction())
            .isFalse();
      } finally {
        armed.set(false);
        release.countDown();
      }
    }
  }

  private Path onlyBucket() throws Exception {
    try (Stream<Path> buckets = Files.list(data.resolve("main").resolve("buckets"))) {
      List<Path> all = buckets.filter(Files::isDirectory).toList();
      assertThat(all).hasSize(1);
      return all.getFirst();
    }
  }

  private static List<String> committedLevels(Path bucket) throws Exception {
    try (Directory directory = FSDirectory.open(bucket)) {
      return SegmentInfos.readLatestCommit(directory).asList().stream()
          .map(s -> JournalStoredFieldsFormat.isCompact(s.info) ? "compact" : "fast")
          .toList();
    }
  }
}
