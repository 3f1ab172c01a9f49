package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.CorruptIndexException;

/**
 * A scan of one metric index that its reader advances ({@link MetricIndexStore#cursor}): each
 * {@link #advance} reads the next chunk in range of the selected series into the visitor (a series'
 * receiver asked for as its first chunk is reached), so a reader that wants a page of points pulls
 * chunks until it has one — holding at most a chunk's points more — and stops when it wants no
 * more.
 *
 * <p>The order is {@link MetricIndexStore#scan}'s, which walks the same steps: buckets whose time
 * bounds do not overlap one after the other, oldest first; a group of buckets overlapping in time
 * bucket by bucket in roll order, less the series written in more than one of them for overlapping
 * stretches of time, then those series gathered and merged (the later roll's point winning: {@link
 * SnapshotScan#gather}). A bucket found damaged goes aside and the cursor goes on with the next
 * one; its message is among {@link #stats}' warnings. {@code scan} reads a warm bucket whole in one
 * step (in parallel slices when its visitor forks).
 */
public final class MetricCursor implements java.io.Closeable {
  private final SnapshotScan scan;
  private final SnapshotScan.Snapshot snapshot; // released on close; null: the caller's
  private final SeriesSelector selector;
  private final long from;
  private final long to;
  private final boolean wholeBuckets;
  private final List<List<Integer>> groups = new ArrayList<>(); // indexes into the roll order
  private final long skipped;
  private long buckets;
  private int group = -1;
  private int member; // the next bucket of the group
  private Set<SeriesKey> merged = Set.of(); // the group's series read across its buckets
  private boolean gathered; // the merged series were taken
  private WarmBucket warm; // the warm bucket being read series by series, or null
  private java.nio.ByteBuffer chunks;
  private int[] chosen;
  private List<HotBucket.Selected> selected; // an in-memory bucket's series, or the merged ones
  private int next; // the next series of the bucket (or the merged ones)
  private MetricScanVisitor.Points sink; // the series being read, or null
  private int chunk; // its next chunk: a warm bucket's chunk number, or an index into seriesChunks
  private int chunkEnd; // a warm series' end chunk
  private List<Chunk> seriesChunks; // an in-memory (or merged) series' chunks
  private final ChunkDecoder decoder;
  private boolean closed;

  /**
   * @param snapshot the buckets {@code scan} reads, released on {@link #close} (null when the
   *     caller releases them)
   * @param wholeBuckets whether a warm bucket is one step ({@link SnapshotScan#run})
   */
  MetricCursor(
      SnapshotScan scan,
      SnapshotScan.Snapshot snapshot,
      SeriesSelector selector,
      long from,
      long to,
      boolean wholeBuckets) {
    this.scan = scan;
    this.snapshot = snapshot;
    this.selector = selector;
    this.from = from;
    this.to = to;
    this.wholeBuckets = wholeBuckets;
    this.decoder = new ChunkDecoder(from, to, scan.counts());
    List<SnapshotScan.Source> byRoll = scan.byRoll();
    List<Integer> inRange = new ArrayList<>();
    long outside = 0;
    for (int i = 0; i < byRoll.size(); i++) {
      SnapshotScan.Source source = byRoll.get(i);
      boolean in =
          source.warm() != null ? source.warm().overlaps(from, to) : source.selected() != null;
      if (in) {
        inRange.add(i);
      } else {
        outside++;
      }
    }
    this.skipped = outside;
    inRange.sort(Comparator.comparingLong((Integer i) -> byRoll.get(i).minTime()));
    int start = 0;
    while (start < inRange.size()) {
      int end = start + 1;
      long groupMax = byRoll.get(inRange.get(start)).maxTime();
      while (end < inRange.size() && byRoll.get(inRange.get(end)).minTime() <= groupMax) {
        groupMax = Math.max(groupMax, byRoll.get(inRange.get(end)).maxTime());
        end++;
      }
      groups.add(List.copyOf(inRange.subList(start, end)));
      start = end;
    }
  }

  /**
   * Reads the next chunk in range of the selected series into {@code visitor} (for a cursor of
   * whole buckets, a warm bucket's every series); false when none is left, or a new group of
   * buckets would start while the visitor is {@linkplain MetricScanVisitor#stopped stopped}.
   */
  public boolean advance(MetricScanVisitor visitor) throws IOException {
    while (true) {
      if (sink != null && readChunk()) {
        return true;
      }
      sink = null;
      if (warm != null && next < chosen.length) {
        int s = chosen[next++];
        if (!visitor.stopped() && (sink = visitor.series(warm.key(s))) != null) {
          scan.counts()[0]++;
          chunk = warm.firstChunk(s);
          chunkEnd = warm.firstChunk(s + 1);
        }
        continue;
      }
      warm = null;
      if (selected != null && next < selected.size()) {
        HotBucket.Selected series = selected.get(next++);
        if (!visitor.stopped() && (sink = visitor.series(series.key())) != null) {
          scan.counts()[0]++;
          seriesChunks = series.chunks();
          chunk = 0;
        }
        continue;
      }
      selected = null;
      if (!nextBucket(visitor)) {
        return false;
      }
    }
  }

  /** The series' next chunk into its receiver; false when it has none left. */
  private boolean readChunk() throws IOException {
    if (warm != null) {
      if (chunk == chunkEnd) {
        return false;
      }
      try {
        warm.readChunk(chunks, chunk++, sink, decoder);
      } catch (CorruptIndexException e) {
        scan.damaged(warm, e); // the rest of the bucket is left out
        warm = null;
        sink = null;
      } catch (NoSuchFileException gone) {
        scan.movedAside(warm, gone);
        warm = null;
        sink = null;
      }
      return true;
    }
    if (chunk == seriesChunks.size()) {
      return false;
    }
    SnapshotScan.readChunk(seriesChunks.get(chunk++), sink, decoder);
    return true;
  }

  /**
   * Starts the next bucket of the group, its merged series, or the next group; false at the end.
   */
  private boolean nextBucket(MetricScanVisitor visitor) throws IOException {
    if (group >= 0 && member < groups.get(group).size()) {
      SnapshotScan.Source source = scan.byRoll().get(groups.get(group).get(member++));
      next = 0;
      if (source.warm() == null) {
        selected =
            merged.isEmpty()
                ? source.selected()
                : source.selected().stream().filter(s -> !merged.contains(s.key())).toList();
        return true;
      }
      try {
        if (wholeBuckets) {
          scan.scanWarm(source.warm(), selector, from, to, visitor, merged);
        } else {
          chunks = source.warm().chunks();
          chosen = source.warm().chosen(selector, from, to, scan.counts(), merged);
          warm = source.warm();
        }
      } catch (CorruptIndexException e) {
        scan.damaged(source.warm(), e);
      } catch (NoSuchFileException gone) {
        scan.movedAside(source.warm(), gone);
      }
      return true;
    }
    if (group >= 0 && !gathered && !merged.isEmpty()) {
      gathered = true;
      List<Integer> inRollOrder = new ArrayList<>(groups.get(group));
      inRollOrder.sort(Comparator.naturalOrder()); // the later bucket's point wins
      selected = scan.gather(inRollOrder, selector, from, to, merged);
      next = 0;
      return true;
    }
    if (group + 1 >= groups.size() || visitor.stopped()) {
      return false;
    }
    group++;
    List<Integer> buckets = groups.get(group);
    this.buckets += buckets.size();
    member = 0;
    gathered = false;
    merged = buckets.size() == 1 ? Set.of() : scan.overlapping(buckets, selector, from, to);
    return true;
  }

  /** What the cursor read and skipped so far, with the messages of buckets found damaged. */
  public MetricScanStats stats() {
    return scan.stats(buckets, skipped);
  }

  /** Lets go of the buckets it reads (a warm one's files may then be deleted). */
  @Override
  public void close() throws IOException {
    if (!closed) {
      closed = true;
      warm = null;
      selected = null;
      sink = null;
      if (snapshot != null) {
        snapshot.release();
      }
    }
  }
}
