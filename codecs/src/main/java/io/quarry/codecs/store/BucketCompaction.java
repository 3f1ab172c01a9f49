package io.quarry.codecs.store;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.apache.lucene.index.IndexWriter;

/**
 * Where one bucket's deferred compaction stands ({@link CompactionSettings}): its merge policy
 * (none when compaction is inline or the bucket opened warm), when it last took an event ({@link
 * BucketActivity}, which the policy's deferral of natural merges reads too), the merges and
 * compactions its searchers already see, whether a compaction it started has not finished, and the
 * lock under which a compaction and the roll's forced merge take the writer's forced merge in turn.
 * {@link Bucket} holds one and asks it; the bucket's writer and searchers stay the bucket's.
 */
final class BucketCompaction {
  private final CompactionMergePolicy policy; // null: compaction inline, or a bucket opened warm
  private final BucketActivity activity;
  private volatile long searchedCompactions; // compaction merges the searchers already see
  private volatile boolean requested; // startIfDue started one since the bucket opened
  private volatile long compactionsAtRequest; // compaction merges done when it last started one
  private final AtomicLong merges = new AtomicLong(); // merged segments warmed (every kind)
  private volatile long searchedMerges; // merged segments the searchers already see
  private volatile long committedCompactions; // compaction merges the last commit holds
  private volatile boolean closing; // no compaction starts (set under forcedMerge)
  // a compaction and a roll do not set the writer's forced merge at once
  private final ReentrantLock forcedMerge = new ReentrantLock();

  /**
   * @param policy the hot bucket's merge policy when compaction is deferred, else null
   * @param activity when the bucket last took an event (the policy's too)
   */
  BucketCompaction(CompactionMergePolicy policy, BucketActivity activity) {
    this.policy = policy;
    this.activity = activity;
  }

  /**
   * Fast segments whose natural merges wait for the compaction while the bucket takes events
   * ({@link CompactionMergePolicy#waitingSegments}).
   */
  int waitingSegments() {
    return policy == null ? 0 : policy.waitingSegments();
  }

  /** The merge policy to write with, or null (compaction inline). */
  CompactionMergePolicy policy() {
    return policy;
  }

  /** An event was added now. */
  void added() {
    activity.added();
  }

  /** A merged segment was warmed (the writer's merged-segment warmer). */
  void merged() {
    merges.incrementAndGet();
  }

  /**
   * Reopens the searchers once merges finished since they opened (see {@link #searchMerged}), then
   * starts a compaction in the background (Lucene's merge threads) when one is due: fast segments
   * (with events not yet flushed) of at least {@code settings.idleMinBytes()} and the bucket idle
   * ({@link BucketActivity#idle}: no event added for {@code settings.idle()}), or fast segments of
   * at least {@code settings.pendingBytes()}; none while one runs or a roll does.
   *
   * @param writer the hot bucket's writer
   * @param hot whether the bucket is still hot (asked again under the lock a roll takes)
   * @param reopen reopens the bucket's searchers on what its writer holds now
   * @param permit runs the start once the node has a permit for it ({@link CompactionPermits})
   * @return whether it started one
   */
  boolean startIfDue(
      IndexWriter writer,
      CompactionSettings settings,
      BooleanSupplier hot,
      IOAction reopen,
      Permit permit)
      throws IOException {
    boolean idle = activity.idle();
    searchMerged(idle, reopen);
    if (policy == null || policy.compacting()) {
      return false;
    }
    if (!settings.due(policy.pendingBytes(), writer.ramBytesUsed(), idle)
        || !forcedMerge.tryLock()) {
      return false;
    }
    try {
      if (closing || !hot.getAsBoolean() || !writer.isOpen()) {
        return false;
      }
      return permit.started(
          () -> {
            compactionsAtRequest = policy.compactions();
            requested = true;
            // flushes, then registers merges
            writer.forceMerge(CompactionMergePolicy.COMPACT, false);
            return policy.compacting();
          });
    } finally {
      forcedMerge.unlock();
    }
  }

  /**
   * Reopens the searchers once merges finished since they opened — when the bucket is idle, or a
   * compaction finished — so searches read the merged (compact) segments and the segments they
   * replace can be deleted: an idle bucket's searchers otherwise kept them, and their files, until
   * the next add (and a refresh during an ingest would flush small segments).
   */
  private void searchMerged(boolean idle, IOAction reopen) throws IOException {
    long merged = merges.get();
    long compacted = policy == null ? 0 : policy.compactions();
    if (merged == searchedMerges && compacted == searchedCompactions
        || !idle && compacted == searchedCompactions) {
      return;
    }
    reopen.run();
    searchedMerges = merged;
    searchedCompactions = compacted;
  }

  /**
   * Starts compacting the bucket in the background ahead of its roll (it took its last event and is
   * committed) into the roll's own shape ({@link CompactionMergePolicy#COMPACT_FOR_ROLL}: at most
   * {@link CompactionMergePolicy#ROLL_SEGMENTS} segments, every one compact), so the roll's forced
   * merge, under the index's commit lock, finds nothing to merge; whatever the idle and size rules
   * say.
   *
   * @return whether a merge now runs for the roll to wait for ({@link #mergingForRoll}; false:
   *     compaction inline, or the bucket closing or no longer hot)
   */
  boolean startForRoll(IndexWriter writer, BooleanSupplier hot) throws IOException {
    if (policy == null) {
      return false;
    }
    forcedMerge.lock();
    try {
      if (closing || !hot.getAsBoolean() || !writer.isOpen()) {
        return false;
      }
      if (!policy.compacting()) {
        compactionsAtRequest = policy.compactions();
        requested = true;
        // registers merges, no wait; Lucene cascades the later rounds as they end
        writer.forceMerge(CompactionMergePolicy.COMPACT_FOR_ROLL, false);
      }
      return mergingForRoll(writer);
    } finally {
      forcedMerge.unlock();
    }
  }

  /** Whether a compaction's merge is registered or running now. */
  boolean merging() {
    return policy != null && policy.compacting();
  }

  /**
   * Whether a merge the roll waits for is registered or running: a compaction's, or any other of
   * {@code writer} — a natural merge that ran when the compaction ahead of the roll started joined
   * it (Lucene's forced merge takes over the running merges) and its output is compacted once it
   * ends; rolled before, the roll's forced merge had waited for it and compacted that output under
   * the index's commit lock.
   */
  boolean mergingForRoll(IndexWriter writer) {
    if (policy == null) {
      return false;
    }
    if (policy.compacting()) {
      return true;
    }
    try {
      return !writer.getMergingSegments().isEmpty();
    } catch (org.apache.lucene.store.AlreadyClosedException closed) {
      return false; // failed: the recovery reopens it
    }
  }

  /**
   * Whether a compaction will start without more events (once the bucket is idle, at the latest):
   * none runs, and the fast segments with the events not yet flushed ({@code unflushedBytes}) reach
   * {@code settings}' bounds.
   */
  boolean due(CompactionSettings settings, long unflushedBytes) {
    return policy != null
        && !policy.compacting()
        && settings.due(policy.pendingBytes(), unflushedBytes, true);
  }

  /**
   * Whether the writer failed (a tragic exception, {@code writer}: the bucket's, or null) after a
   * compaction was started and before one finished: the index backs off its next compaction.
   */
  boolean failed(IndexWriter writer) {
    return policy != null
        && requested
        && policy.compactions() == compactionsAtRequest
        && writer != null
        && writer.getTragicException() != null;
  }

  /** Bytes of the segments still waiting for compaction (0 when not deferred). */
  long pendingBytes() {
    return policy == null ? 0 : policy.pendingBytes();
  }

  /** Compaction merges finished so far: pass to {@link #committed} once a commit holds them. */
  long compactionsDone() {
    return policy == null ? 0 : policy.compactions();
  }

  /**
   * A commit made after {@code compactions} compaction merges had ended ({@link #compactionsDone}).
   */
  void committed(long compactions) {
    committedCompactions = compactions;
  }

  /**
   * Whether a compaction ended that the bucket's last commit does not hold: until a commit, the
   * segments it replaced stay on disk (the last commit still names them), doubling the bucket's
   * bytes for up to a commit interval after an idle compaction.
   */
  boolean compactionUncommitted() {
    return policy != null && !policy.compacting() && policy.compactions() != committedCompactions;
  }

  /** Whether a compaction runs now, or the searchers do not see one that ended. */
  boolean running() {
    return policy != null && (policy.compacting() || policy.compactions() != searchedCompactions);
  }

  /** Counts the compaction merges finished from now on in the index's {@code counter} too. */
  void countIn(CompactionCounter counter) {
    if (policy != null) {
      policy.countIn(counter);
    }
  }

  /** Runs the roll's forced merge, no compaction being started meanwhile. */
  void rollExclusively(IOAction roll) throws IOException {
    forcedMerge.lock();
    try {
      roll.run();
    } finally {
      forcedMerge.unlock();
    }
  }

  /** Runs a compaction's start once the node has a permit for it ({@link CompactionPermits}). */
  @FunctionalInterface
  interface Permit {
    /** Whether {@code start} ran and a merge of the compaction now runs. */
    boolean started(CompactionPermits.IOStart start) throws IOException;
  }

  /** No compaction starts from now on (the bucket closes, aborting the running merges). */
  void close() {
    forcedMerge.lock();
    try {
      closing = true;
    } finally {
      forcedMerge.unlock();
    }
  }
}
