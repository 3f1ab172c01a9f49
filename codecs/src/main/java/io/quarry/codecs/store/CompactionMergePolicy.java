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
 * needs. While the bucket is not idle and the fast segments hold at least the compaction's idle
 * minimum (so that the idle compaction takes them once the events stop), the wrapped policy's
 * merges of fast segments are dropped ({@link #waitingSegments} counts the fast segments that
 * wait), as long as both bounds hold:
 *
 * <ul>
 *   <li>at most {@link #MAX_DEFERRED_FAST_SEGMENTS} fast segments, so searches and open files never
 *       meet many more segments a hot bucket than before (since session 48 a flushed segment is ~12
 *       files, not a compound file's 3: up to ~800 files, and as many memory maps, a hot bucket at
 *       the bound);
 *   <li>at most {@link BucketActivity#MAX_DEFERRAL_NANOS} since they first waited after the last
 *       compaction ended (session 40): a bucket that is never idle long enough (a busy {@code
 *       _internal}, a trickle with gaps shorter than the idle time) gets no idle compaction, so
 *       waiting saves it nothing; it had sat at up to 64 fast segments until its size bound or
 *       roll.
 * </ul>
 *
 * Past either bound, or once the bucket is idle, the fast segments merge again, <b>one natural
 * merge at a time</b> (session 40): the wrapped policy asked about a backlog of dozens of segments
 * answers several merges at once, and several queued merges stall the ingest on two cores; each
 * merge's end asks again, so the backlog is worked off one merge after the other. Compact segments'
 * merges are never deferred (their blocks are copied). The idle time and the time waited are {@link
 * BucketActivity}'s, which the compaction's start reads too. This moves CPU out of the ingest
 * rather than removing it: at 2M events the server's CPU in the ingest fell (21.3 → 18.5 s, loaded)
 * while ingest plus compaction stayed the same (29.5 against 29.9 s: compacting many small segments
 * costs the merge thread ~1.2 s more); what it saves at 10M, where natural merges merge merged
 * segments again inside the ingest, is unmeasured (docs/design/block-index.md).
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
  private final BucketActivity activity; // null: natural merges never wait
  private final long idleMinBytes;
  private volatile int waitingSegments;
  private final Set<CompactionMerge> running = ConcurrentHashMap.newKeySet();
  private final AtomicLong compactions = new AtomicLong();
  private volatile CompactionCounter index; // the index's, once the bucket is its
  private volatile long pendingBytes;

  /**
   * @param maxSegmentBytes a compaction's merges read at most this many bytes each
   * @param activity when the bucket took its last event: while it takes events its natural merges
   *     of fast segments wait ({@link BucketActivity#mayDefer}); null: they never wait ({@link
   *     HotBucketConfig#DEFER_NATURAL_MERGES_PROPERTY})
   * @param idleMinBytes fast bytes from which an idle bucket is compacted ({@link
   *     CompactionSettings#idleMinBytes}): under them natural merges never wait, since no idle
   *     compaction would take their segments
   */
  CompactionMergePolicy(
      MergePolicy in, long maxSegmentBytes, BucketActivity activity, long idleMinBytes) {
    super(in);
    this.maxSegmentBytes = maxSegmentBytes;
    this.activity = activity;
    this.idleMinBytes = idleMinBytes;
  }

  /**
   * The fast segments whose natural merges wait for the compaction, as of the last merge decision:
   * all of the hot bucket's fast segments while it defers them, 0 otherwise (and once a compaction
   * took them). Stable between flushes, unlike the count of merges held back, which the wrapped
   * policy asks for only now and then.
   */
  int waitingSegments() {
    return waitingSegments;
  }

  /** What the merge decision does with the wrapped policy's merges of fast segments. */
  private enum FastMerges {
    /** As the wrapped policy says: nothing waited (too few fast bytes, or deferral off). */
    AS_ASKED,
    /** Dropped: the compaction merges these segments anyway. */
    WAIT,
    /** The first only, and none while one runs: a backlog that waited is worked off. */
    ONE_AT_A_TIME
  }

  private FastMerges fastMerges(int count, long bytes) {
    if (activity == null || bytes < idleMinBytes) {
      return FastMerges.AS_ASKED;
    }
    if (count <= MAX_DEFERRED_FAST_SEGMENTS && activity.mayDefer()) {
      return FastMerges.WAIT;
    }
    return FastMerges.ONE_AT_A_TIME;
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
    return natural(infos, context, segments -> in.findMerges(trigger, segments, context));
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
    return natural(infos, context, segments -> in.findFullFlushMerges(trigger, segments, context));
  }

  /**
   * The wrapped policy's merges ({@code find}) of the fast segments apart from the compact ones;
   * the fast ones' dropped while the bucket takes events, or one at a time past the deferral's
   * bounds ({@link #fastMerges}).
   */
  private MergeSpecification natural(SegmentInfos infos, MergeContext context, Finder find)
      throws IOException {
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
    switch (fastMerges(fast.size(), pending)) {
      case WAIT -> {
        waitingSegments = fast.size();
        merges = null; // the compaction merges these segments anyway
      }
      case ONE_AT_A_TIME -> {
        waitingSegments = 0;
        merges = first(merges, fast, context);
      }
      case AS_ASKED -> waitingSegments = 0;
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

  /**
   * The first of {@code merges} (the wrapped policy's best), or none while a merge of fast segments
   * — natural or a compaction's — runs: the end of each merge asks again.
   */
  private static MergeSpecification first(
      MergeSpecification merges, SegmentInfos fast, MergeContext context) {
    if (merges == null || merges.merges.isEmpty()) {
      return null;
    }
    Set<SegmentCommitInfo> merging = context.getMergingSegments();
    for (SegmentCommitInfo segment : fast) {
      if (merging.contains(segment)) {
        return null;
      }
    }
    MergeSpecification one = new MergeSpecification();
    one.add(merges.merges.get(0));
    return one;
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
    waitingSegments = 0; // a forced merge takes the fast segments
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
        if (activity != null) {
          activity.compacted();
        }
        compactions.incrementAndGet();
        CompactionCounter counter = index;
        if (counter != null) {
          counter.add(totalBytesSize());
        }
      }
    }
  }
}
