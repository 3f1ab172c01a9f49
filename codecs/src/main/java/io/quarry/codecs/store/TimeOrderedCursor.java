package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;

/**
 * The pull form of the time-ordered scan: the matching events of many segments, newest first,
 * handed to one {@link EventVisitor} a bounded number at a time ({@link #advance}). Every segment
 * is sorted by time, newest first (or its blocks are ordered so when it opens: {@link
 * BlockCursor}), so each segment's cursor is already in order and a priority queue of their heads
 * yields the global order lazily: a {@code head 10} reads about ten events, and a caller that stops
 * advancing reads nothing more. The cursor stops and resumes anywhere, in the middle of a block
 * too.
 *
 * <p>Events of equal time in different segments come in the order the segments were opened (the
 * sources in the order given — an index's buckets oldest first — then each bucket's segments in its
 * reader's order), each segment's in its own order (written order: see ARCHITECTURE "Decisions"),
 * so the order of ties does not depend on how the scan is pulled.
 *
 * <p>A segment's head may be known only within bounds (an undecoded block: its events lie between
 * its oldest and newest time, {@link TimeOrderedScan.Cursor#floor}): it is queued by its newest
 * bound and handed out undecoded while its oldest bound is above every other head, else its block
 * is decoded for the exact times first ({@link TimeOrderedScan.Cursor#settle}).
 *
 * <p>A damaged journal block met while reading or visiting drops its bucket from the scan (and
 * quarantines it in its index), with a warning.
 */
public final class TimeOrderedCursor implements EventCursor {
  private final EventVisitor visitor;
  private final int sources;
  private final PriorityQueue<TimeOrderedScan.Cursor> queue =
      new PriorityQueue<>(
          (a, b) ->
              a.time != b.time ? Long.compare(b.time, a.time) : Integer.compare(a.order, b.order));
  private final List<String> warnings = new ArrayList<>();
  private final Set<Bucket> damaged = new HashSet<>(); // quarantined once, their cursors dropped
  private final long[] journalBefore;
  private final long lookupNanos;
  private int segments;
  private int segmentsSkipped;
  private long read; // events visited or handled by a document shortcut
  private long taken; // events of blocks a block shortcut took whole
  private boolean stopped; // a shortcut said stop
  private boolean ended;

  /**
   * Opens every segment of {@code sources} for {@code query}'s events in {@code [earliest,
   * latest)}: each segment's first match is found now (the index lookup), none is visited yet.
   */
  TimeOrderedCursor(
      List<TimeOrderedScan.Source> sources,
      Query query,
      long earliest,
      long latest,
      EventVisitor visitor)
      throws IOException {
    this.visitor = visitor;
    this.sources = sources.size();
    this.journalBefore = io.quarry.codecs.journal.JournalReads.read();
    long lookupStarted = System.nanoTime();
    if (earliest < latest) {
      for (TimeOrderedScan.Source source : sources) {
        open(source, query, earliest, latest);
      }
    }
    this.lookupNanos = System.nanoTime() - lookupStarted;
  }

  private void open(TimeOrderedScan.Source source, Query query, long earliest, long latest)
      throws IOException {
    IndexSearcher searcher = source.searcher();
    boolean blocks = source.bucket().format() == BucketFormat.BLOCKS;
    Query sourceQuery =
        blocks
            ? BlockQueries.forSource(query, source, earliest, latest)
            : TimeOrderedScan.withTimeRange(query, source, earliest, latest);
    Weight weight =
        searcher.createWeight(searcher.rewrite(sourceQuery), ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      segments++;
      if (damaged.contains(source.bucket())) {
        segmentsSkipped++; // quarantined while its first segments were opened
        continue;
      }
      Scorer scorer = weight.scorer(leaf);
      TimeOrderedScan.Cursor cursor =
          scorer == null
              ? null
              : blocks
                  ? new BlockCursor(
                      source,
                      leaf,
                      scorer.iterator(),
                      earliest,
                      latest,
                      visitor.blockShortcut(leaf.reader()))
                  : new TimeOrderedScan.DocCursor(
                      source, leaf, scorer.iterator(), visitor.shortcut(leaf.reader()));
      if (cursor != null) {
        cursor.order = segments;
      }
      if (cursor != null && step(cursor, TimeOrderedScan.Cursor::advance)) {
        queue.add(cursor);
      } else {
        segmentsSkipped++;
      }
    }
  }

  @Override
  public boolean advance(int maxEvents) throws IOException {
    if (ended) {
      return false;
    }
    boolean more = visit(maxEvents);
    if (!more) {
      ended = true;
      try {
        visitor.finish();
      } catch (java.io.UncheckedIOException e) {
        if (!TimeOrderedScan.damagedRead(e)) {
          throw e;
        }
        warnings.add(
            "a damaged journal block was met while finishing the search: " + e.getMessage());
      }
    }
    return more;
  }

  private boolean visit(int maxEvents) throws IOException {
    int visited = 0;
    while (!queue.isEmpty() && !stopped) {
      if (visited == maxEvents) {
        return true; // the queue's head is visited by the next call
      }
      TimeOrderedScan.Cursor cursor = queue.poll();
      if (cursor.floor < cursor.time) { // known within bounds: in order only above every rival
        TimeOrderedScan.Cursor rival = queue.peek();
        if (rival != null && cursor.floor <= rival.time) {
          if (step(cursor, TimeOrderedScan.Cursor::settle)) {
            queue.add(cursor); // queued again by its exact time
          }
          continue;
        }
      }
      EventVisitor.DocShortcut shortcut = cursor.shortcut();
      if (shortcut != null) { // the visitor may handle the document without its event
        int answer = shortcut.take(cursor.docID());
        if (answer == EventVisitor.DocShortcut.STOP) {
          return false;
        }
        if (answer == EventVisitor.DocShortcut.TAKEN) {
          read++;
          if (step(cursor, TimeOrderedScan.Cursor::advance)) {
            queue.add(cursor);
          }
          continue;
        }
      }
      boolean more;
      try {
        StoredEvent event = cursor.load();
        read++;
        visited++;
        more = visitor.visit(event);
      } catch (CorruptIndexException e) {
        drop(cursor, e); // a damaged journal block: the bucket leaves the scan and the index
        continue;
      } catch (java.io.UncheckedIOException e) {
        if (!TimeOrderedScan.damagedRead(e)) {
          throw e;
        }
        drop(cursor, e); // the visitor met it reading the event
        continue;
      }
      if (!more) {
        return false;
      }
      if (step(cursor, TimeOrderedScan.Cursor::advance)) {
        queue.add(cursor);
      }
    }
    return false;
  }

  /** A move of one segment's cursor. */
  @FunctionalInterface
  private interface Move {
    boolean apply(TimeOrderedScan.Cursor cursor) throws IOException;
  }

  /**
   * Moves a cursor; false when it has no event left, or when its bucket turned out damaged (then
   * the bucket is quarantined and its other cursors leave the queue).
   */
  private boolean step(TimeOrderedScan.Cursor cursor, Move move) throws IOException {
    try {
      boolean more = move.apply(cursor);
      taken += cursor.taken;
      cursor.taken = 0;
      stopped |= cursor.stopped;
      return more;
    } catch (CorruptIndexException e) {
      drop(cursor, e);
      return false;
    } catch (java.io.UncheckedIOException e) {
      if (!TimeOrderedScan.damagedRead(e)) {
        throw e;
      }
      drop(cursor, e);
      return false;
    }
  }

  private void drop(TimeOrderedScan.Cursor cursor, Exception e) {
    Bucket bucket = cursor.source.bucket();
    if (damaged.add(bucket)) {
      warnings.add(cursor.source.store().quarantine(bucket, TimeOrderedScan.corruption(e)));
    }
    queue.removeIf(other -> other.source.bucket() == bucket);
  }

  @Override
  public boolean ended() {
    return ended;
  }

  @Override
  public long eventsRead() {
    return read + taken;
  }

  /** What the scan read so far: its segments, events, index lookup and journal decoding. */
  ScanStats stats() {
    return new ScanStats(
        0,
        sources,
        0,
        segments,
        segmentsSkipped,
        eventsRead(),
        ScanStats.Costs.indexLookup(lookupNanos).plus(ScanStats.Costs.journalSince(journalBefore)),
        List.copyOf(warnings));
  }
}
