package io.quarry.server.search;

import io.quarry.codecs.store.BlockValueCounts;
import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.store.EventVisitor;
import io.quarry.codecs.store.EventVisitor.DocShortcut;
import io.quarry.codecs.store.StoredEvent;
import java.io.IOException;
import java.util.BitSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.index.LeafReader;

/**
 * The {@code dedup f} skip over blocks (issue 23): in a time-ordered scan, a block offered when it
 * would be opened is skipped unread when every one of its events has exactly one value of {@code f}
 * and the value of each was already let through — an event visited before it in time order had it,
 * so {@code dedup} would drop them all. The values let through are those of the events visited
 * ({@link #visited}) and those the event layout's shortcut let through, in one set.
 */
final class BlockDedup {
  private final String field;
  private final Set<String> seen;
  private final SearchControl control;
  private long skipped;

  BlockDedup(String field, Set<String> seen, SearchControl control) {
    this.field = field;
    this.seen = seen;
    this.control = control;
  }

  /** Notes the value of an event that was visited and matched (dedup saw it). */
  void visited(StoredEvent event) {
    List<String> values =
        switch (field) {
          case EventFields.HOST -> List.of(event.host());
          case EventFields.SOURCE -> List.of(event.source());
          case EventFields.SOURCETYPE -> List.of(event.sourcetype());
          default -> event.indexedField(field);
        };
    if (values != null && values.size() == 1) {
      seen.add(values.get(0));
    }
  }

  /** The skip for one segment of blocks, or null when its blocks have no counts of the field. */
  EventVisitor.BlockShortcut shortcut(LeafReader reader) throws IOException {
    BlockValueCounts counts = BlockValueCounts.open(reader, field);
    if (counts == null) {
      return null;
    }
    BitSet seenOrds = new BitSet();
    return (doc, events, oldest, newest) -> {
      if (!counts.advanceExact(doc) || counts.total() != events) {
        return DocShortcut.VISIT; // some event lacks the field or has several values
      }
      for (int v = 0; v < counts.size(); v++) {
        int ord = (int) counts.ord(v);
        if (!seenOrds.get(ord)) {
          if (!seen.contains(counts.dictionary().lookupOrd(ord).utf8ToString())) {
            return DocShortcut.VISIT; // a value dedup has not let through yet
          }
          seenOrds.set(ord);
        }
      }
      if (control.readAndCheck(events)) {
        return DocShortcut.STOP;
      }
      skipped += events;
      return DocShortcut.TAKEN;
    };
  }

  /** The events skipped so far. */
  long skipped() {
    return skipped;
  }
}
