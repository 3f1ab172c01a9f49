package io.quarry.codecs.store;

import java.io.IOException;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.SegmentInfos;

/**
 * The deferred compaction of a bucket that is not warm, as its index and the node's permits see it
 * ({@link CompactionPermits}): starting the hot bucket's when it is due, the compaction ahead of
 * the roll of a full bucket ({@link #compactBeforeRoll}: from then on the bucket waits for its
 * roll, takes no event, and is neither hot nor warm), whether one runs, is due or holds a permit.
 * The merges themselves and their bookkeeping are {@link BucketCompaction}'s; a warm bucket answers
 * that nothing runs or is due.
 */
final class HotBucketCompaction {
  private final Bucket bucket;
  private final BucketCompaction compaction;
  // full: takes no event, compacts ahead of its roll (compactBeforeRoll started one)
  private volatile boolean waitingForRoll;

  HotBucketCompaction(Bucket bucket, BucketCompaction compaction) {
    this.bucket = bucket;
    this.compaction = compaction;
  }

  /** Whether {@link #compactBeforeRoll} was asked (the bucket is full), warm or not since. */
  boolean waitingForRoll() {
    return waitingForRoll;
  }

  /**
   * Starts a compaction of the hot bucket in the background when it is due ({@link
   * BucketCompaction#startIfDue}) and the node has a permit for it ({@link CompactionPermits});
   * none once it is not hot.
   *
   * @return whether it started one
   */
  boolean compactIfDue(CompactionSettings settings, CompactionPermits node) throws IOException {
    IndexWriter current = bucket.writer();
    if (bucket.state() != BucketState.HOT || current == null) {
      return false;
    }
    return compaction.startIfDue(
        current,
        settings,
        () -> bucket.state() == BucketState.HOT && !waitingForRoll,
        bucket::reopenSearchers,
        start -> node.start(bucket, start) == CompactionPermits.Started.MERGING);
  }

  /**
   * Starts compacting the bucket in the background ahead of its roll ({@link
   * BucketCompaction#startForRoll}) once the node has a permit for it ({@link CompactionPermits}):
   * the bucket no longer takes events and is committed.
   *
   * @param mayStart false while the index backs off after a failed compaction ({@code
   *     IndexCompaction}): the bucket waits for its roll without starting one, unless nothing is
   *     left to compact (its roll then merges nothing)
   * @return whether the roll waits: a merge runs now ({@link #compactionMerging}), the node's
   *     permits are taken, or {@code mayStart} is false and fast segments are left (false with
   *     compaction inline: the roll compacts)
   */
  boolean compactBeforeRoll(CompactionPermits node, boolean mayStart) throws IOException {
    IndexWriter current = bucket.writer();
    if (bucket.state() != BucketState.HOT || current == null) {
      return false;
    }
    waitingForRoll = true;
    if (compaction.policy() == null) {
      return false;
    }
    if (nothingToCompactForRoll(current)) {
      return false; // asked before a permit: a bucket with nothing to merge waits for none
    }
    if (!mayStart) {
      // the back-off holds back merges; a bucket compacted ahead has none left: its roll commits
      return compaction.mergingForRoll(current) || compaction.pendingBytes() > 0;
    }
    return node.startForRoll(
            bucket, () -> compaction.startForRoll(current, () -> bucket.state() == BucketState.HOT))
        != CompactionPermits.Started.NOTHING;
  }

  /**
   * Whether the compaction ahead of the roll of this bucket (compaction deferred) would merge
   * nothing: no merge of it runs, no fast segment is left ({@link BucketCompaction#pendingBytes})
   * and its last commit holds at most {@link CompactionMergePolicy#ROLL_SEGMENTS} segments. Checked
   * before the node is asked for a permit, so a bucket compacted while it was hot (an idle or
   * bounded compaction) rolls without waiting for another index's compaction to free one.
   */
  private boolean nothingToCompactForRoll(IndexWriter current) throws IOException {
    return !compaction.mergingForRoll(current)
        && compaction.pendingBytes() == 0
        && committedSegments(current) <= CompactionMergePolicy.ROLL_SEGMENTS;
  }

  /**
   * The segments of the writer's last commit: none when it never committed (a bucket opened again
   * after a crash before its first commit: {@code CrashRecoveryTest} found it). Both roll checks,
   * deferred ({@link #nothingToCompactForRoll}) and inline ({@link #rollCompacts}), read it.
   */
  private static int committedSegments(IndexWriter writer) throws IOException {
    org.apache.lucene.store.Directory directory = writer.getDirectory();
    if (!org.apache.lucene.index.DirectoryReader.indexExists(directory)) {
      return 0;
    }
    return SegmentInfos.readLatestCommit(directory).size();
  }

  /** Whether the bucket compacts inline (in its roll's forced merge), not deferred. */
  boolean inline() {
    return compaction.policy() == null;
  }

  /**
   * Whether the bucket's roll compacts it (compaction inline: no compaction ran ahead of the roll,
   * whose forced merge merges the bucket's segments under its index's commit lock): its last commit
   * holds more than {@link CompactionMergePolicy#ROLL_SEGMENTS} segments. A full bucket is
   * committed before its roll is asked for, but one that never committed (opened again after a
   * crash or a failed commit before its first) counts none; a roll of fewer segments merges
   * nothing.
   */
  boolean rollCompacts() throws IOException {
    IndexWriter current = bucket.writer();
    return compaction.policy() == null
        && current != null
        && committedSegments(current) > CompactionMergePolicy.ROLL_SEGMENTS;
  }

  /**
   * Whether a merge the roll waits for is registered or running now ({@link
   * BucketCompaction#mergingForRoll}).
   */
  boolean compactionMerging() {
    IndexWriter current = bucket.writer();
    return bucket.state() != BucketState.WARM
        && current != null
        && compaction.mergingForRoll(current);
  }

  /**
   * Whether the bucket keeps the node's permit it took for a compaction ({@link
   * CompactionPermits}): its writer is open (not rolled, failed or closed) and it waits for its
   * roll, or (an idle or bounded compaction) a compaction's merge of it is registered or running.
   */
  boolean holdsCompactionPermit() {
    return (waitsForRoll() || bucket.state() != BucketState.WARM && compaction.merging())
        && !bucket.failed();
  }

  /**
   * Whether the bucket waits for its roll ({@link #compactBeforeRoll} was asked): its last commit
   * holds fast segments (and, while its compaction runs, its directory the compact ones replacing
   * them) until the roll commits its compact ones.
   */
  boolean waitsForRoll() {
    return waitingForRoll && bucket.state() != BucketState.WARM;
  }

  /**
   * Whether the bucket's writer failed (a tragic exception) after a compaction was started and
   * before one finished: the index backs off its next compaction ({@code IndexCompaction}).
   */
  boolean compactionFailed() {
    return compaction.failed(bucket.writer());
  }

  /**
   * The hot bucket's fast segments whose natural merges wait for the compaction because it takes
   * events ({@link CompactionMergePolicy}, "Natural merges of fast segments wait"); 0 once it is
   * not hot.
   */
  int waitingSegments() {
    return bucket.state() == BucketState.HOT && !waitingForRoll ? compaction.waitingSegments() : 0;
  }

  /**
   * Whether the hot bucket's last commit does not hold a compaction that ended ({@link
   * BucketCompaction#compactionUncommitted}): its index commits it at once instead of at its next
   * commit interval, so the fast segments it replaced leave the disk.
   */
  boolean compactionUncommitted() {
    return bucket.state() == BucketState.HOT
        && !waitingForRoll
        && compaction.compactionUncommitted();
  }

  /** Bytes of the hot bucket's segments still waiting for compaction (0 when not deferred). */
  long compactionPendingBytes() {
    return bucket.state() == BucketState.WARM ? 0 : compaction.pendingBytes();
  }

  /**
   * Whether a compaction of this bucket runs now, or (a hot bucket's) its searchers do not see one
   * that ended: a bucket waiting for its roll reopens its searchers only in the roll.
   */
  boolean compacting() {
    return bucket.state() != BucketState.WARM
        && (waitingForRoll ? compaction.merging() : compaction.running());
  }

  /**
   * Whether a compaction of this bucket will start or end without more events: a hot bucket's when
   * {@link BucketCompaction#due}, and a full bucket's until it rolled (waiting for its roll, its
   * fast and compact segments are both on disk until the roll's merge and commit).
   */
  boolean compactionDue(CompactionSettings settings) {
    BucketState now = bucket.state();
    if (now == BucketState.ROLLING || now != BucketState.WARM && waitingForRoll) {
      return true; // full: its roll (a forced merge) runs without more events
    }
    IndexWriter current = bucket.writer();
    if (now != BucketState.HOT || current == null) {
      return false;
    }
    try {
      return compaction.due(settings, current.ramBytesUsed());
    } catch (org.apache.lucene.store.AlreadyClosedException rolled) {
      return false; // rolled meanwhile (the roll compacts) or failed (recovery reopens it)
    }
  }

  /**
   * Counts this bucket's compaction merges in the index's {@code counter} from now on: before the
   * bucket takes part in the index (none starts before {@link #compactIfDue} or the roll).
   */
  void countCompactionsIn(CompactionCounter counter) {
    compaction.countIn(counter);
  }
}
