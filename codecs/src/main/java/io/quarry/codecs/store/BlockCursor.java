package io.quarry.codecs.store;

import java.io.IOException;
import java.util.PriorityQueue;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * The events of one segment's candidate blocks in {@code [earliest, latest)}, newest first. Blocks
 * are taken by their newest event, newest first — in doc order where the segment is sorted so
 * (Lucene's index sort: block layout 1), else ordered here from {@code _time}'s doc values when the
 * cursor opens (layout 2 keeps blocks in the order written; see {@link BucketFormat}) — but may
 * overlap in time, so the cursor merges the events of the blocks it has open and opens the next
 * candidate only when its newest event could come next: a {@code head 10} decodes the blocks it
 * returns events from, and about one more. A block that lies wholly in range is first offered to
 * the visitor's {@link EventVisitor#blockShortcut} at the moment it would be opened (a {@code
 * dedup} skips a block whose every value it has already let through).
 */
final class BlockCursor extends TimeOrderedScan.Cursor {
  private final DocIdSetIterator candidates; // null when ordered
  private final int[] ordered; // the candidates newest block first, when the segment is unsorted
  private final long[] orderedNewest;
  private int orderedNext;
  private final NumericDocValues newest;
  private final StoredFields journal;
  private final BlockColumns elsewhere;
  private final long earliest;
  private final long latest;
  private final PriorityQueue<Position> open =
      new PriorityQueue<>(
          (a, b) ->
              a.time != b.time
                  ? Long.compare(b.time, a.time)
                  : a.doc != b.doc ? Integer.compare(a.doc, b.doc) : Integer.compare(a.i, b.i));
  private int next; // the next candidate not opened yet, or NO_MORE_DOCS
  private long nextNewest;
  private BlockEvents current;
  private int currentIndex;

  /** The visitor's block shortcut and the blocks' bounds, or null. */
  private final EventVisitor.BlockShortcut shortcut;

  private final BlockBounds bounds;

  BlockCursor(
      TimeOrderedScan.Source source,
      LeafReaderContext leaf,
      DocIdSetIterator candidates,
      long earliest,
      long latest,
      EventVisitor.BlockShortcut shortcut)
      throws IOException {
    super(source);
    this.shortcut = shortcut;
    this.bounds = shortcut == null ? null : BlockBounds.open(leaf.reader());
    this.newest = DocValues.getNumeric(leaf.reader(), EventFields.TIME);
    if (leaf.reader().getMetaData().sort() == null) {
      BlockOrder order = BlockOrder.newestFirst(candidates, newest);
      this.candidates = null;
      this.ordered = order.docs();
      this.orderedNewest = order.newest();
    } else {
      this.candidates = candidates;
      this.ordered = null;
      this.orderedNewest = null;
    }
    this.journal = leaf.reader().storedFields();
    this.elsewhere = new BlockColumns(leaf.reader());
    this.earliest = earliest;
    this.latest = latest;
    nextCandidate();
  }

  private void nextCandidate() throws IOException {
    if (ordered != null) {
      if (orderedNext < ordered.length) {
        next = ordered[orderedNext];
        nextNewest = orderedNewest[orderedNext++];
      } else {
        next = DocIdSetIterator.NO_MORE_DOCS;
      }
      return;
    }
    next = candidates.nextDoc();
    if (next != DocIdSetIterator.NO_MORE_DOCS) {
      nextNewest = newest.advanceExact(next) ? newest.longValue() : Long.MAX_VALUE;
    }
  }

  @Override
  boolean advance() throws IOException {
    while (next != DocIdSetIterator.NO_MORE_DOCS
        && (open.isEmpty() || nextNewest >= open.peek().time)) {
      if (bounds != null && bounds.inside(next, earliest, latest)) {
        // offered when it would be opened: the events before it in time order have been visited
        int taken = shortcut.take(next, bounds.events, bounds.oldestTime, bounds.newestTime);
        if (taken == EventVisitor.DocShortcut.STOP) {
          stopped = true;
          return false;
        }
        if (taken == EventVisitor.DocShortcut.TAKEN) {
          this.taken += bounds.events;
          nextCandidate();
          continue;
        }
      }
      BlockEvents block = BlockEvents.read(source.index(), journal, elsewhere, next);
      Position first = new Position(block, next);
      while (first.i < block.count() && block.time(first.i) >= latest) {
        first.i++;
      }
      if (first.settle(earliest)) {
        open.add(first);
      }
      nextCandidate();
    }
    Position head = open.poll();
    if (head == null) {
      return false;
    }
    current = head.block;
    currentIndex = head.i;
    time = head.time;
    head.i++;
    if (head.settle(earliest)) {
      open.add(head);
    }
    return true;
  }

  @Override
  StoredEvent load() {
    return current.event(currentIndex);
  }

  /** An open block and its next event. */
  private static final class Position {
    final BlockEvents block;
    final int doc;
    int i;
    long time;

    Position(BlockEvents block, int doc) {
      this.block = block;
      this.doc = doc;
    }

    /** Reads event {@code i}'s time; false when the block has no event left in range. */
    boolean settle(long earliest) {
      if (i >= block.count()) {
        return false;
      }
      time = block.time(i);
      return time >= earliest;
    }
  }
}
