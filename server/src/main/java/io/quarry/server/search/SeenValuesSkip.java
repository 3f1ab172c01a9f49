package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor.DocShortcut;
import java.io.IOException;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.SortedSetDocValues;

/**
 * The {@code dedup} skip of a time-ordered scan: for a pipeline that starts with {@code dedup f}
 * (keeping the first event per value) over an exact index query, events whose index-time keyword
 * value of {@code f} an earlier event had are taken without being read — the dedup would drop them.
 * An event is let through (and its value remembered) the first time its value comes; events with no
 * or several doc values for the field go the ordinary way. One instance per scan (time-ordered: one
 * thread); used by the page source ({@link TimeOrderedPages}). Skipped events count as matched and
 * read, and as the dedup's input.
 */
final class SeenValuesSkip {
  private final String field;
  private final SearchControl control;
  private final Set<String> seen = new HashSet<>();
  private long skipped;
  private int unreported; // skipped events not yet told to the control

  SeenValuesSkip(String field, SearchControl control) {
    this.field = field;
    this.control = control;
  }

  /** The shortcut for one segment, or null when it has no keyword doc values for the field. */
  DocShortcut shortcut(LeafReader reader) throws IOException {
    SortedSetDocValues values = OrdinalCounts.keywordValues(reader, field);
    if (values == null || values.getValueCount() > OrdinalCounts.MAX_COUNTED_ORDINALS) {
      return null;
    }
    BitSet seenHere = new BitSet((int) values.getValueCount());
    return doc -> {
      if (!values.advanceExact(doc) || values.docValueCount() != 1) {
        return DocShortcut.VISIT;
      }
      int ord = (int) values.nextOrd();
      if (!seenHere.get(ord)) {
        seenHere.set(ord);
        if (seen.add(values.lookupOrd(ord).utf8ToString())) {
          return DocShortcut.VISIT; // the first event with this value: dedup keeps it
        }
      }
      if (++unreported == SearchControl.EVERY) {
        unreported = 0;
        if (control.readAndCheck(SearchControl.EVERY)) {
          return DocShortcut.STOP;
        }
      }
      skipped++;
      return DocShortcut.TAKEN;
    };
  }

  /** The field whose repeated values are skipped. */
  String field() {
    return field;
  }

  /**
   * The values let through so far (the block layout's skip, {@link BlockDedup}, reads and adds to
   * the same set: time-ordered, one thread).
   */
  Set<String> seen() {
    return seen;
  }

  /** Events skipped so far. */
  long skipped() {
    return skipped;
  }

  /** Tells the control the skipped events not yet reported (at the end of the scan). */
  void reportRead() {
    control.read(unreported);
    unreported = 0;
  }
}
