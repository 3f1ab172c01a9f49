package io.quarry.server.search;

import io.quarry.codecs.store.EventVisitor;
import java.io.IOException;
import org.apache.lucene.index.LeafReader;

/**
 * One slice's counting of the blocks their value counts or codes decide ({@link BlockCounting}: a
 * count, a count by one field; {@link BlockGroupCounting}: a count by several), the rest of the
 * slice's events read as rows.
 */
interface BlockCountSource {
  /** The shortcut for one slice's segment, or null when its blocks have nothing to count from. */
  EventVisitor.BlockShortcut shortcut(LeafReader reader) throws IOException;

  /** The events this slice counted (they matched). */
  long rows();

  /** Hands the slice's counts to the aggregation; returns the nanoseconds counting took. */
  long finish();
}
