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
 */
final class CompactionMergePolicy extends FilterMergePolicy {
  /** The segment count of {@code forceMerge} that asks for a compaction. */
  static final int COMPACT = Integer.MAX_VALUE;

  /** The segment count of {@code forceMerge} that asks for the compaction ahead of a roll. */
  static final int COMPACT_FOR_ROLL = Integer.MAX_VALUE - 1;

  /** The segments a bucket rolled to warm holds at most (the roll's forced merge). */
  static final int ROLL_SEGMENTS = 4;

  private final long maxSegmentBytes;
  private final Set<CompactionMerge> running = ConcurrentHashMap.newKeySet();
  private final AtomicLong compactions = new AtomicLong();
  private volatile CompactionCounter index; // the index's, once the bucket is its
  private volatile long pendingBytes;

  CompactionMergePolicy(MergePolicy in, long maxSegmentBytes) {
    super(in);
    this.maxSegmentBytes = maxSegmentBytes;
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
    MergeSpecification merges = in.findMerges(trigger, fast, context);
    MergeSpecification compactMerges = in.findMerges(trigger, compact, context);
    if (merges == null) {
      return compactMerges;
    }
    if (compactMerges != null) {
      compactMerges.merges.forEach(merges::add);
    }
    return merges;
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
