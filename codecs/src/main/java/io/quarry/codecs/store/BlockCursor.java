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
 * candidate only when its newest event could come next: a {@code head 10} reads the blocks it
 * returns events from, and about one more. A block that lies wholly in range is first offered to
 * the visitor's {@link EventVisitor#blockShortcut} at the moment it would be opened (a {@code
 * dedup} skips a block whose every value it has already let through).
 *
 * <p>A block wholly in range opens {@link BlockEvents#unread unread}: its events are known to lie
 * between its oldest and newest time ({@link BlockBounds}), and while its oldest time is above
 * every other open block's next event and the next candidate's newest, its events come next in
 * block order without their times being read — its payload is decoded only if the visitor asks for
 * something it holds, as in the batch scan. A block whose bounds overlap another's is decoded when
 * it comes to the head, and merged by its events' exact times.
 */
final class BlockCursor extends TimeOrderedScan.Cursor {
  private final DocIdSetIterator candidates; // null when ordered
  private final BlockOrder
      ordered; // the candidates newest block first, when the segment is unsorted
  private int orderedNext;
  private final NumericDocValues newest;
  private final BlockBounds bounds; // null when the blocks predate their bounds
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

  // the next candidate not opened yet (NO_MORE_DOCS: none), its newest time and bounds
  private int next;
  private long nextNewest;
  private int nextEvents; // -1: bounds unknown
  private long nextOldest;

  private BlockEvents current;
  private int currentIndex;

  /** The visitor's block shortcut, or null. */
  private final EventVisitor.BlockShortcut shortcut;

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
    this.bounds = BlockBounds.open(leaf.reader());
    this.newest = DocValues.getNumeric(leaf.reader(), EventFields.TIME);
    if (leaf.reader().getMetaData().sort() == null) {
      this.candidates = null;
      this.ordered = BlockOrder.newestFirst(candidates, newest, bounds);
    } else {
      this.candidates = candidates;
      this.ordered = null;
    }
    this.journal = leaf.reader().storedFields();
    this.elsewhere = new BlockColumns(leaf.reader());
    this.earliest = earliest;
    this.latest = latest;
    nextCandidate();
  }

  private void nextCandidate() throws IOException {
    if (ordered != null) {
      if (orderedNext < ordered.docs().length) {
        next = ordered.docs()[orderedNext];
        nextNewest = ordered.newest()[orderedNext];
        nextEvents = ordered.events()[orderedNext];
        nextOldest = ordered.oldest()[orderedNext++];
      } else {
        next = DocIdSetIterator.NO_MORE_DOCS;
      }
      return;
    }
    next = candidates.nextDoc();
    if (next != DocIdSetIterator.NO_MORE_DOCS) {
      nextNewest = newest.advanceExact(next) ? newest.longValue() : Long.MAX_VALUE;
      boolean known = bounds != null && bounds.read(next);
      nextEvents = known ? bounds.events : -1;
      nextOldest = known ? bounds.oldestTime : Long.MIN_VALUE;
    }
  }

  @Override
  boolean advance() throws IOException {
    while (true) {
      openCandidates();
      if (stopped) {
        return false;
      }
      Position head = open.poll();
      if (head == null) {
        return false;
      }
      if (!head.exact) {
        long rival = open.isEmpty() ? Long.MIN_VALUE : open.peek().time;
        if (next != DocIdSetIterator.NO_MORE_DOCS) {
          rival = Math.max(rival, nextNewest);
        }
        if (head.block.decoded() || head.floor <= rival) {
          head.exact = true; // merged by its events' times from here on
          if (head.settle(earliest)) {
            open.add(head);
          }
          continue;
        }
      }
      current = head.block;
      currentIndex = head.i;
      time = head.time;
      floor = head.exact ? head.time : head.floor;
      head.i++;
      if (head.settle(earliest)) {
        open.add(head);
      }
      return true;
    }
  }

  /**
   * Opens the candidates whose newest event could come before the open blocks' next (each wholly in
   * range offered to the shortcut first); sets {@code stopped} when the shortcut says stop.
   */
  private void openCandidates() throws IOException {
    while (next != DocIdSetIterator.NO_MORE_DOCS
        && (open.isEmpty() || nextNewest >= open.peek().time)) {
      boolean inside = nextEvents >= 0 && nextOldest >= earliest && nextNewest < latest;
      if (inside && shortcut != null) {
        // offered when it would be opened: the events before it in time order have been visited
        int taken = shortcut.take(next, nextEvents, nextOldest, nextNewest);
        if (taken == EventVisitor.DocShortcut.STOP) {
          stopped = true;
          return;
        }
        if (taken == EventVisitor.DocShortcut.TAKEN) {
          this.taken += nextEvents;
          nextCandidate();
          continue;
        }
      }
      Position first;
      if (inside) {
        first =
            new Position(
                BlockEvents.unread(source.index(), journal, elsewhere, next, nextEvents), next);
        first.time = nextNewest;
        first.floor = nextOldest;
      } else {
        BlockEvents block = BlockEvents.read(source.index(), journal, elsewhere, next);
        first = new Position(block, next);
        first.exact = true;
        while (first.i < block.count() && block.time(first.i) >= latest) {
          first.i++;
        }
      }
      if (first.settle(earliest)) {
        open.add(first);
      }
      nextCandidate();
    }
  }

  @Override
  boolean settle() {
    time = current.time(currentIndex); // decodes the block
    floor = time;
    return true;
  }

  @Override
  StoredEvent load() {
    return current.eventOfUnknownTime(currentIndex); // its time read when asked, if not yet
  }

  /** An open block and its next event. */
  private static final class Position {
    final BlockEvents block;
    final int doc;
    int i;

    /** The next event's time, or the block's newest time until {@link #exact}. */
    long time;

    /** The block's oldest time, while not {@link #exact}. */
    long floor;

    /** Whether {@link #time} is the next event's own (the block decoded), not a bound. */
    boolean exact;

    Position(BlockEvents block, int doc) {
      this.block = block;
      this.doc = doc;
    }

    /** Reads event {@code i}'s time when exact; false when the block has no event left in range. */
    boolean settle(long earliest) {
      if (i >= block.count()) {
        return false;
      }
      if (!exact) {
        return true; // wholly in range: every event is
      }
      time = block.time(i);
      return time >= earliest;
    }
  }
}
