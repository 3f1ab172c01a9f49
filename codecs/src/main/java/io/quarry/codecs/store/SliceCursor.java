package io.quarry.codecs.store;

import java.io.IOException;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * The pull form of one slice of a parallel scan: doc ids {@code [from, to)} of one segment, whose
 * matching events (or the in-range events of its candidate blocks) go to the slice's {@link
 * EventVisitor} as the caller {@link #advance advances} it, a bounded number at a time — as a
 * Lucene {@code BulkScorer} scores a window of doc ids and ES|QL's {@code LuceneSourceOperator}
 * reads a page's worth of its slice per call. The visitor's shortcuts are offered as in the push
 * scan ({@link EventVisitor#shortcut}, {@link EventVisitor#blockShortcut}): documents or blocks
 * they take are counted as read and never visited.
 *
 * <p>When the slice ends by itself (every document read, the visitor's {@code visit} returned
 * false, a shortcut answered {@link EventVisitor.DocShortcut#STOP}) the cursor calls the visitor's
 * {@link EventVisitor#finish} once, before {@link #advance} returns false. A caller that stops
 * advancing earlier (what reads the slice's pages needs no more) leaves it unfinished, and so does
 * a scan abandoned (another slice failed, the scan's thread was interrupted: {@link
 * RunningSlices}), whose cursors end at their next advance; the scan closes the visitor in every
 * case.
 */
public final class SliceCursor implements EventCursor {
  private final EventVisitor visitor;
  private final TimeOrderedScan.Source source;
  private final LeafReader reader;
  private final DocIdSetIterator docs; // null: no document of the slice matches
  private final int to;
  private final long earliest;
  private final long latest;
  private final boolean blocks;
  private final boolean keepsEvents;
  private final boolean takesRuns; // a block wholly in range goes to the visitor as runs
  private final SegmentDictionaries dictionaries; // shared by the scan's slices of the segment
  private final RunningSlices scan; // abandoned: the slice ends at the next advance

  // documents
  private TimeOrderedScan.EventLoader loader;
  private EventVisitor.DocShortcut docShortcut;

  // blocks
  private StoredFields journal;
  private PrefixTimes prefixTimes; // a run's times without its texts, null: not a journal
  private BlockColumns elsewhere;
  private EventVisitor.BlockShortcut blockShortcut;
  private BlockBounds bounds;
  private BlockEvents block; // the block being visited, null between blocks
  private boolean blockInside; // every event of block lies in the scan's range (by its bounds)
  private int inBlock; // the next event of block

  private int doc; // the next document (or block) to read
  private long read; // events read or taken
  private boolean ended;

  /**
   * Opens doc ids {@code [from, to)} of {@code leaf} ({@code docs} its matches, null when none
   * match): event documents, or, when {@code blocks}, block documents whose events in {@code
   * [earliest, latest)} are visited; {@code everyDocument} when the scan's query matches every
   * document (an event visitor's shortcut may then take the slice whole).
   */
  SliceCursor(
      EventVisitor visitor,
      TimeOrderedScan.Source source,
      LeafReaderContext leaf,
      DocIdSetIterator docs,
      int from,
      int to,
      boolean blocks,
      boolean everyDocument,
      long earliest,
      long latest,
      SegmentDictionaries dictionaries,
      RunningSlices scan)
      throws IOException {
    this.dictionaries = dictionaries;
    this.scan = scan;
    this.visitor = visitor;
    this.source = source;
    this.reader = leaf.reader();
    this.docs = docs;
    this.to = to;
    this.blocks = blocks;
    this.earliest = earliest;
    this.latest = latest;
    this.keepsEvents = visitor.keepsEvents();
    this.takesRuns = visitor.takesRuns();
    if (docs == null) {
      doc = DocIdSetIterator.NO_MORE_DOCS;
    } else if (blocks) {
      openBlocks(from);
    } else {
      openDocuments(leaf, from, everyDocument);
    }
  }

  private void openDocuments(LeafReaderContext leaf, int from, boolean everyDocument)
      throws IOException {
    loader = new TimeOrderedScan.EventLoader(source.index(), leaf);
    docShortcut = visitor.shortcut(reader);
    if (docShortcut != null
        && everyDocument
        && !reader.hasDeletions()
        && docShortcut.takeAll(from, to)) {
      read = to - from;
      doc = DocIdSetIterator.NO_MORE_DOCS;
      return;
    }
    doc = docs.advance(from);
  }

  private void openBlocks(int from) throws IOException {
    journal = reader.storedFields();
    prefixTimes = takesRuns ? PrefixTimes.of(reader) : null;
    elsewhere = new BlockColumns(reader, dictionaries);
    blockShortcut = visitor.blockShortcut(reader);
    bounds = BlockBounds.open(reader);
    Bucket bucket = source.bucket();
    if (blockShortcut != null
        && bucket.minTime() >= earliest
        && bucket.maxTime() < latest
        && !reader.hasDeletions()) {
      long events = BlockSequences.events(reader, from, to);
      if (blockShortcut.takeAll(from, to, events)) {
        read = events;
        doc = DocIdSetIterator.NO_MORE_DOCS;
        return;
      }
    }
    doc = docs.advance(from);
  }

  @Override
  public boolean advance(int maxEvents) throws IOException {
    if (ended) {
      return false;
    }
    if (scan.abandoned()) { // the scan failed or was interrupted: its answer is not wanted
      ended = true;
      return false; // unfinished: the scan closes the visitor
    }
    boolean more = blocks ? visitBlocks(maxEvents) : visitDocuments(maxEvents);
    if (!more) {
      ended = true;
      visitor.finish();
    }
    return more;
  }

  @Override
  public boolean ended() {
    return ended;
  }

  @Override
  public long eventsRead() {
    return read;
  }

  private boolean visitDocuments(int maxEvents) throws IOException {
    int visited = 0;
    for (; doc < to; doc = docs.nextDoc()) {
      if (visited == maxEvents) {
        return true; // doc is read by the next call
      }
      read++;
      if (docShortcut != null) {
        int taken = docShortcut.take(doc);
        if (taken == EventVisitor.DocShortcut.STOP) {
          return false;
        }
        if (taken == EventVisitor.DocShortcut.TAKEN) {
          continue;
        }
      }
      loader.time(doc);
      visited++;
      if (!visitor.visit(loader.load(doc))) {
        return false;
      }
    }
    return false;
  }

  /**
   * Visits the in-range events of the slice's candidate blocks, or has the visitor's block shortcut
   * take a block that lies wholly in range.
   */
  private boolean visitBlocks(int maxEvents) throws IOException {
    int visited = 0;
    while (true) {
      if (block != null) {
        // the open block's events in locals (the visitor's calls do not reload them), written back
        // whenever the loop leaves
        BlockEvents open = block;
        int count = open.count();
        int event = inBlock;
        int visitedBefore = visited;
        try {
          if (takesRuns && blockInside && event < count) {
            int size = Math.min(count - event, maxEvents - visited);
            if (size == 0) {
              return true; // the block's next event is visited by the next call
            }
            EventRun run = new EventRun(open, event, size);
            boolean going = visitor.visit(run);
            event += run.visited();
            visited += run.visited(); // a visitor stopping inside the run read only what it visited
            if (!going) {
              return false;
            }
          }
          while (event < count) {
            if (visited == maxEvents) {
              return true; // the block's next event is visited by the next call
            }
            StoredEvent visiting;
            if (blockInside) {
              visiting = open.eventOfUnknownTime(event++); // no time read: the payload may stay
            } else {
              long time = open.time(event);
              if (time < earliest || time >= latest) {
                event++;
                continue;
              }
              visiting = open.event(event++);
            }
            visited++;
            if (!visitor.visit(visiting)) {
              return false;
            }
          }
        } finally {
          inBlock = event;
          read += visited - visitedBefore; // each event visited is one read
        }
        if (!keepsEvents) {
          block.release();
        }
        block = null;
        doc = docs.nextDoc();
      }
      if (doc >= to) {
        return false;
      }
      boolean inside = bounds != null && bounds.inside(doc, earliest, latest);
      if (inside && blockShortcut != null) {
        int taken = blockShortcut.take(doc, bounds.events, bounds.oldestTime, bounds.newestTime);
        if (taken == EventVisitor.DocShortcut.STOP) {
          return false;
        }
        if (taken == EventVisitor.DocShortcut.TAKEN) {
          read += bounds.events;
          doc = docs.nextDoc();
          continue;
        }
      }
      // a block wholly in range is decoded only if its events' visit needs the payload
      block =
          inside
              ? BlockEvents.unread(source.index(), journal, elsewhere, doc, bounds.events)
              : BlockEvents.read(source.index(), journal, elsewhere, doc);
      if (inside && takesRuns && prefixTimes != null) {
        block.timesByPrefix(prefixTimes, bounds.oldestTime, bounds.newestTime);
      }
      blockInside = inside;
      inBlock = 0;
    }
  }
}
