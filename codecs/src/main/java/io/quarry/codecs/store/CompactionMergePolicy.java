package io.quarry.codecs.store;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.MergeTrigger;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;

/**
 * The merge policy of a hot bucket whose compaction is deferred ({@link CompactionSettings}): the
 * natural merges (the wrapped policy's) see only the segments whose journal is still fast, so they
 * write fast blocks and never turn a compacted segment fast again; a compaction — {@code
 * IndexWriter.forceMerge(}{@link #COMPACT}{@code )} — merges the fast segments into compact ones; a
 * roll's forced merge (to a few segments) also merges every fast segment its own merges leave. The
 * codec makes every forced merge compact ({@link JournalStoredFieldsFormat}, "Fast and compact
 * blocks").
 *
 * <p>A compaction merges the fast segments only, in groups of at most {@code maxSegmentBytes}
 * (index order); compact segments are left as they are — the natural merges among them (apart from
 * the fast ones) keep them few, copying their blocks as they are.
 *
 * <p>The compaction ahead of a roll — {@code forceMerge(}{@link #COMPACT_FOR_ROLL}{@code )} —
 * writes the roll's own shape instead: the wrapped policy's forced merges to {@link #ROLL_SEGMENTS}
 * segments, and every fast segment they leave, all counted as compaction merges. Lucene cascades a
 * forced merge's later rounds as its merges end, so once it ended the roll's {@code
 * forceMerge(}{@link #ROLL_SEGMENTS}{@code )} asks the same policy of the same segments and finds
 * nothing to merge: the roll only commits (session 35; before, the roll merged the compaction's
 * compact segments once more under the index's commit lock).
 *
 * <p><b>Natural merges of fast segments wait while the bucket takes events</b> (session 39): every
 * fast segment is merged again by the compaction (idle, bound or roll), so a natural merge among
 * them is work done twice — its postings, doc values and block copies — on the cores the ingest
 * needs. While an event was added within the compaction's idle time ({@link #deferWhile}) and the
 * fast segments hold at least the compaction's idle minimum (so that the idle compaction takes them
 * once the events stop), the wrapped policy's merges of fast segments are dropped ({@link
 * #deferredMerges} counts them), up to {@link #MAX_DEFERRED_FAST_SEGMENTS} fast segments: past that
 * bound they merge as before, so searches and open files never meet many more segments a hot bucket
 * than before (a bucket that is never idle, such as a busy {@code _internal}, holds up to that many
 * until its bound or roll compacts it). Compact segments' merges are never deferred (their blocks
 * are copied). This moves CPU out of the ingest rather than removing it: at 2M events the server's
 * CPU in the ingest fell (21.3 → 18.5 s, loaded) while ingest plus compaction stayed the same (29.5
 * against 29.9 s: compacting many small segments costs the merge thread ~1.2 s more); what it saves
 * at 10M, where natural merges merge merged segments again inside the ingest, is unmeasured
 * (docs/design/block-index.md).
 */
final class CompactionMergePolicy extends FilterMergePolicy {
  /** The segment count of {@code forceMerge} that asks for a compaction. */
  static final int COMPACT = Integer.MAX_VALUE;

  /** The segment count of {@code forceMerge} that asks for the compaction ahead of a roll. */
  static final int COMPACT_FOR_ROLL = Integer.MAX_VALUE - 1;

  /** The segments a bucket rolled to warm holds at most (the roll's forced merge). */
  static final int ROLL_SEGMENTS = 4;

  /** The fast segments a hot bucket taking events may hold before its natural merges resume. */
  static final int MAX_DEFERRED_FAST_SEGMENTS = 64;

  private final long maxSegmentBytes;
  private final long idleNanos;
  private final long idleMinBytes;
  private volatile LongSupplier lastAddNanos; // null: never deferred
  private volatile int deferredMerges;
  private final Set<CompactionMerge> running = ConcurrentHashMap.newKeySet();
  private final AtomicLong compactions = new AtomicLong();
  private volatile CompactionCounter index; // the index's, once the bucket is its
  private volatile long pendingBytes;

  /**
   * @param maxSegmentBytes a compaction's merges read at most this many bytes each
   * @param idleNanos a bucket that took an event within this many nanoseconds takes events: its
   *     natural merges of fast segments wait ({@link CompactionSettings#idleNanos}; 0: they never
   *     wait, {@link HotBucketConfig#DEFER_NATURAL_MERGES_PROPERTY})
   * @param idleMinBytes fast bytes from which an idle bucket is compacted ({@link
   *     CompactionSettings#idleMinBytes}): under them natural merges never wait, since no idle
   *     compaction would take their segments
   */
  CompactionMergePolicy(MergePolicy in, long maxSegmentBytes, long idleNanos, long idleMinBytes) {
    super(in);
    this.maxSegmentBytes = maxSegmentBytes;
    this.idleNanos = idleNanos;
    this.idleMinBytes = idleMinBytes;
  }

  /**
   * Defers natural merges of fast segments while an event was added ({@code lastAddNanos}, {@link
   * System#nanoTime}) within the idle time.
   */
  void deferWhile(LongSupplier lastAddNanos) {
    this.lastAddNanos = lastAddNanos;
  }

  /**
   * Natural merges of fast segments the last merge decision held back because the bucket takes
   * events (0 once it is idle and a compaction or a later decision took them).
   */
  int deferredMerges() {
    return deferredMerges;
  }

  /** Whether natural merges of {@code count} fast segments of {@code bytes} wait now. */
  private boolean deferring(int count, long bytes) {
    LongSupplier added = lastAddNanos;
    return added != null
        && count <= MAX_DEFERRED_FAST_SEGMENTS
        && bytes >= idleMinBytes
        && System.nanoTime() - added.getAsLong() < idleNanos;
  }

  /** Bytes of the segments whose journal is still fast, as of the last merge decision. */
  long pendingBytes() {
    return pendingBytes;
  }

  /** Whether a compaction's merge is registered or running. */
  boolean compacting() {
    running.removeIf(MergePolicy.OneMerge::isAborted);
    return !running.isEmpty();
  }

  /** Compaction merges finished in this bucket since it opened. */
  long compactions() {
    return compactions.get();
  }

  /** Counts the compaction merges finished from now on in {@code counter} (the index's) too. */
  void countIn(CompactionCounter counter) {
    index = counter;
  }

  @Override
  public MergeSpecification findMerges(
      MergeTrigger trigger, SegmentInfos infos, MergeContext context) throws IOException {
    return natural(infos, segments -> in.findMerges(trigger, segments, context));
  }

  /**
   * The merges Lucene asks for at a commit or a reader's refresh (merge-on-commit of small
   * segments, {@code IndexWriterConfig.setMaxFullFlushMergeWaitMillis}): split and deferred as
   * {@link #findMerges} (before session 39 they went to the wrapped policy with every segment, fast
   * and compact together).
   */
  @Override
  public MergeSpecification findFullFlushMerges(
      MergeTrigger trigger, SegmentInfos infos, MergeContext context) throws IOException {
    return natural(infos, segments -> in.findFullFlushMerges(trigger, segments, context));
  }

  /**
   * The wrapped policy's merges ({@code find}) of the fast segments apart from the compact ones;
   * the fast ones' dropped while the bucket takes events ({@link #deferring}).
   */
  private MergeSpecification natural(SegmentInfos infos, Finder find) throws IOException {
    SegmentInfos fast = new SegmentInfos(infos.getIndexCreatedVersionMajor());
    SegmentInfos compact = new SegmentInfos(infos.getIndexCreatedVersionMajor());
    long pending = 0;
    for (SegmentCommitInfo segment : infos) {
      if (JournalStoredFieldsFormat.isCompact(segment.info)) {
        compact.add(segment);
      } else {
        fast.add(segment);
        pending += segment.sizeInBytes();
      }
    }
    pendingBytes = pending;
    MergeSpecification merges = find.merges(fast);
    if (merges != null && deferring(fast.size(), pending)) {
      deferredMerges = merges.merges.size();
      merges = null; // the compaction merges these segments anyway
    } else {
      deferredMerges = 0;
    }
    MergeSpecification compactMerges = find.merges(compact);
    if (merges == null) {
      return compactMerges;
    }
    if (compactMerges != null) {
      compactMerges.merges.forEach(merges::add);
    }
    return merges;
  }

  /** One of the wrapped policy's merge decisions over some of the segments. */
  @FunctionalInterface
  private interface Finder {
    MergeSpecification merges(SegmentInfos segments) throws IOException;
  }

  @Override
  public MergeSpecification findForcedMerges(
      SegmentInfos infos,
      int maxSegmentCount,
      Map<SegmentCommitInfo, Boolean> segmentsToMerge,
      MergeContext context)
      throws IOException {
    MergeSpecification merges =
        switch (maxSegmentCount) {
          case COMPACT -> null;
          case COMPACT_FOR_ROLL ->
              counted(in.findForcedMerges(infos, ROLL_SEGMENTS, segmentsToMerge, context));
          default -> in.findForcedMerges(infos, maxSegmentCount, segmentsToMerge, context);
        };
    Set<SegmentCommitInfo> taken = new HashSet<>(context.getMergingSegments());
    if (merges != null) {
      for (OneMerge merge : merges.merges) {
        taken.addAll(merge.segments);
      }
    }
    List<SegmentCommitInfo> fast = new ArrayList<>();
    long pending = 0;
    for (SegmentCommitInfo segment : infos) {
      if (JournalStoredFieldsFormat.isCompact(segment.info)) {
        continue;
      }
      pending += segment.sizeInBytes();
      if (!taken.contains(segment) && segmentsToMerge.containsKey(segment)) {
        fast.add(segment);
      }
    }
    pendingBytes = pending;
    deferredMerges = 0; // a forced merge takes the fast segments
    if (fast.isEmpty()) {
      return merges;
    }
    MergeSpecification specification = merges == null ? new MergeSpecification() : merges;
    for (List<SegmentCommitInfo> group : groups(fast)) {
      CompactionMerge merge = new CompactionMerge(group);
      running.add(merge);
      specification.add(merge);
    }
    return specification;
  }

  /** The same merges, as compaction merges (counted while they run and when done), or null. */
  private MergeSpecification counted(MergeSpecification merges) {
    if (merges == null) {
      return null;
    }
    MergeSpecification specification = new MergeSpecification();
    for (OneMerge merge : merges.merges) {
      CompactionMerge counted = new CompactionMerge(merge.segments);
      running.add(counted);
      specification.add(counted);
    }
    return specification;
  }

  /** The fast segments in groups of at most {@link #maxSegmentBytes}, in index order. */
  private List<List<SegmentCommitInfo>> groups(List<SegmentCommitInfo> fast) throws IOException {
    List<List<SegmentCommitInfo>> groups = new ArrayList<>();
    List<SegmentCommitInfo> group = new ArrayList<>();
    long bytes = 0;
    for (SegmentCommitInfo segment : fast) {
      if (!group.isEmpty() && bytes + segment.sizeInBytes() > maxSegmentBytes) {
        groups.add(group);
        group = new ArrayList<>();
        bytes = 0;
      }
      group.add(segment);
      bytes += segment.sizeInBytes();
    }
    groups.add(group);
    return groups;
  }

  /** One merge of a compaction: counted while it runs and when it is done. */
  private final class CompactionMerge extends OneMerge {
    CompactionMerge(List<SegmentCommitInfo> segments) {
      super(segments);
    }

    @Override
    public void mergeFinished(boolean success, boolean segmentDropped) throws IOException {
      super.mergeFinished(success, segmentDropped);
      running.remove(this);
      if (success) {
        compactions.incrementAndGet();
        CompactionCounter counter = index;
        if (counter != null) {
          counter.add(totalBytesSize());
        }
      }
    }
  }
}
