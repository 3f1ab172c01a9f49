package io.quarry.codecs.store;

import java.io.IOException;

/**
 * The pull form of a scan: each {@link #advance} visits a bounded number of the scan's events with
 * its {@link EventVisitor}, so the caller decides how far the scan reads (a page's worth per call,
 * and no more once what reads the pages is done). A slice of a parallel scan ({@link SliceCursor})
 * and the newest-first scan of many segments ({@link TimeOrderedCursor}) are both read this way.
 * When the scan ends by itself (nothing left, the visitor's {@code visit} returned false, a
 * shortcut answered {@link EventVisitor.DocShortcut#STOP}) the cursor calls the visitor's {@link
 * EventVisitor#finish} once, before {@link #advance} returns false; a caller that stops advancing
 * earlier leaves it unfinished.
 */
public interface EventCursor {
  /**
   * Visits at most {@code maxEvents} more events (events a shortcut takes do not count); true while
   * the scan has more, false once it ended (the visitor then finished).
   */
  boolean advance(int maxEvents) throws IOException;

  /** Whether the scan ended ({@link #advance} returned false). */
  boolean ended();

  /** The events read or taken so far. */
  long eventsRead();
}
