package io.quarry.codecs.store;

import static io.quarry.codecs.store.NumberedEvents.events;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.InfoStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The bounds of the deferral of a hot bucket's natural merges of fast segments ({@link
 * CompactionMergePolicy}, {@link BucketActivity}), on a real bucket whose idle time runs on a clock
 * the test moves: a bucket that takes events without ever idling holds its fast segments back for
 * {@link BucketActivity#MAX_DEFERRAL_NANOS} at most, then merges them again one merge at a time
 * (the tiered policy alone asks for several at once over such a backlog); a compaction that ends
 * starts the deferral over; the compaction's start reads the same clock.
 */
class NaturalMergeDeferralBoundsTest {
  @TempDir Path data;

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private long sequence;

  private static final int BACKLOG = 40;

  private Bucket open(BucketFormat format) throws Exception {
    IndexOptions options =
        IndexOptions.builder()
            .format(format)
            // idle after 5 s without an event (on the test's clock); any fast byte waits
            .compaction(new CompactionSettings(true, Duration.ofSeconds(5), 1L << 40))
            .build();
    return Bucket.open(1, data.resolve("1"), options, 0, FSDirectory::open, nanos::get);
  }

  /** Adds {@code segments} segments of ten events (each committed), the clock standing still. */
  private void addSegments(Bucket bucket, BatchLayouts layouts, int segments) throws Exception {
    for (int i = 0; i < segments; i++) {
      layouts.addTo(bucket, events((int) sequence, 10), sequence);
      sequence += 10;
      bucket.commit();
    }
  }

  /** Moves the clock on by {@code by}, one event added at its end: the bucket takes events. */
  private void takeEventsFor(Bucket bucket, BatchLayouts layouts, Duration by) throws Exception {
    nanos.addAndGet(by.toNanos());
    layouts.addTo(bucket, events((int) sequence, 1), sequence);
    sequence++;
  }

  private static CompactionMergePolicy policy(Bucket bucket) {
    return (CompactionMergePolicy) bucket.writer().getConfig().getMergePolicy();
  }

  private static SegmentInfos committed(Bucket bucket) throws Exception {
    return SegmentInfos.readLatestCommit(bucket.directory());
  }

  /** The segments of {@code infos} whose journal is still fast. */
  private static int fast(SegmentInfos infos) {
    int fast = 0;
    for (SegmentCommitInfo segment : infos) {
      if (!JournalStoredFieldsFormat.isCompact(segment.info)) {
        fast++;
      }
    }
    return fast;
  }

  /** Lucene's view of the merges running while a policy decides. */
  private record Merging(Set<SegmentCommitInfo> segments) implements MergePolicy.MergeContext {
    @Override
    public int numDeletesToMerge(SegmentCommitInfo info) {
      return 0;
    }

    @Override
    public int numDeletedDocs(SegmentCommitInfo info) {
      return 0;
    }

    @Override
    public InfoStream getInfoStream() {
      return InfoStream.NO_OUTPUT;
    }

    @Override
    public Set<SegmentCommitInfo> getMergingSegments() {
      return segments;
    }
  }

  private static final Merging NONE_MERGING = new Merging(Set.of());

  private static int mergesAsked(MergePolicy policy, SegmentInfos infos, Merging merging)
      throws Exception {
    MergePolicy.MergeSpecification merges =
        policy.findMerges(MergeTrigger.SEGMENT_FLUSH, infos, merging);
    return merges == null ? 0 : merges.merges.size();
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void aBucketThatNeverIdlesMergesAgainOneAtATimeOnceTheDeferralTimeIsOut(BucketFormat format)
      throws Exception {
    try (Bucket bucket = open(format)) {
      BatchLayouts layouts = new BatchLayouts("main", IndexOptions.DEFAULTS);
      addSegments(bucket, layouts, BACKLOG);
      SegmentInfos backlog = committed(bucket);
      assertThat(backlog.size()).as("the natural merges waited").isEqualTo(BACKLOG);
      assertThat(policy(bucket).waitingSegments()).isEqualTo(BACKLOG);
      assertThat(mergesAsked(new TieredMergePolicy(), backlog, NONE_MERGING))
          .as("the tiered policy alone asks for a burst of merges over this backlog")
          .isGreaterThan(1);

      // events go on arriving, never 5 s apart, until just before the deferral's time is out
      Duration max = Duration.ofNanos(BucketActivity.MAX_DEFERRAL_NANOS);
      for (Duration waited = Duration.ZERO;
          waited.compareTo(max.minusSeconds(2)) < 0;
          waited = waited.plusSeconds(2)) {
        takeEventsFor(bucket, layouts, Duration.ofSeconds(2));
      }
      assertThat(mergesAsked(policy(bucket), backlog, NONE_MERGING))
          .as("within the deferral time the merges still wait")
          .isZero();
      assertThat(policy(bucket).waitingSegments()).isEqualTo(BACKLOG);

      takeEventsFor(bucket, layouts, Duration.ofSeconds(2)); // a minute of events, no idle gap
      assertThat(mergesAsked(policy(bucket), backlog, NONE_MERGING))
          .as("no compaction came: the fast segments merge again, one merge at a time")
          .isEqualTo(1);
      assertThat(policy(bucket).waitingSegments()).isZero();
      Set<SegmentCommitInfo> one = new HashSet<>(Set.of(backlog.info(0)));
      assertThat(mergesAsked(policy(bucket), backlog, new Merging(one)))
          .as("none while a merge of fast segments runs: its end asks again")
          .isZero();

      // the writer itself works the backlog off, one merge after the other
      bucket.commit();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (committed(bucket).size() > BACKLOG / 4 && System.nanoTime() < deadline) {
        Thread.sleep(20);
        bucket.writer().maybeMerge();
        bucket.commit();
      }
      assertThat(committed(bucket).size()).isLessThanOrEqualTo(BACKLOG / 4);
      assertThat(fast(committed(bucket))).isEqualTo(committed(bucket).size());
    }
  }

  @ParameterizedTest
  @EnumSource(BucketFormat.class)
  void anIdleCompactionOnTheSameClockStartsTheDeferralOver(BucketFormat format) throws Exception {
    try (Bucket bucket = open(format)) {
      BatchLayouts layouts = new BatchLayouts("main", IndexOptions.DEFAULTS);
      addSegments(bucket, layouts, BACKLOG / 2);
      takeEventsFor(bucket, layouts, Duration.ofNanos(BucketActivity.MAX_DEFERRAL_NANOS));
      assertThat(mergesAsked(policy(bucket), committed(bucket), NONE_MERGING)).isEqualTo(1);

      CompactionSettings settings = new CompactionSettings(true, Duration.ofSeconds(5), 1L << 40);
      CompactionPermits permits = new CompactionPermits(1);
      nanos.addAndGet(TimeUnit.SECONDS.toNanos(4));
      assertThat(bucket.hotCompaction().compactIfDue(settings, permits))
          .as("4 s without an event on the bucket's clock: not idle, no compaction")
          .isFalse();
      nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
      assertThat(bucket.hotCompaction().compactIfDue(settings, permits))
          .as("5 s without an event: idle, compacted")
          .isTrue();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (bucket.hotCompaction().compacting() && System.nanoTime() < deadline) {
        Thread.sleep(20);
        bucket.reopenSearchers();
        bucket.hotCompaction().compactIfDue(settings, permits); // searchers see the compaction
      }
      assertThat(bucket.hotCompaction().compacting()).isFalse();

      nanos.addAndGet(TimeUnit.SECONDS.toNanos(1));
      addSegments(bucket, layouts, BACKLOG / 2);
      SegmentInfos after = committed(bucket);
      int fast = fast(after);
      assertThat(fast).as("the new fast segments wait again").isGreaterThanOrEqualTo(BACKLOG / 2);
      assertThat(mergesAsked(policy(bucket), after, NONE_MERGING)).isZero();
      assertThat(policy(bucket).waitingSegments()).isEqualTo(fast);
    }
  }
}
