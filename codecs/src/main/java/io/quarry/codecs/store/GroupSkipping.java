package io.quarry.codecs.store;

import io.quarry.codecs.block.TermFilterGroups;
import io.quarry.codecs.block.TermFilterValues;
import java.io.IOException;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * The block documents with a term filter, but those of the {@link TermFilterGroups groups} whose
 * filter says "no" for some terms: the approximation of {@link TermFilterQuery} in a segment that
 * groups its blocks. A group is asked once per search of the segment (its answer kept), and only
 * when the iteration reaches it; a document in no group is never skipped.
 */
final class GroupSkipping extends DocIdSetIterator {
  private static final byte UNKNOWN = 0;
  private static final byte MAYBE = 1;
  private static final byte NO = 2;

  private final TermFilterValues values;
  private final TermFilterGroups groups;
  private final long[] hashes;
  private final boolean every;
  private final byte[] answers;
  private int doc = -1;

  /**
   * @param hashes the probed hashes (none of them common)
   * @param every whether a block must hold every one of them (else any)
   */
  GroupSkipping(TermFilterValues values, long[] hashes, boolean every) {
    this.values = values;
    this.groups = values.groups();
    this.hashes = hashes;
    this.every = every;
    this.answers = new byte[groups.count()];
  }

  @Override
  public int docID() {
    return doc;
  }

  @Override
  public int nextDoc() throws IOException {
    return advance(doc + 1);
  }

  @Override
  public int advance(int target) throws IOException {
    if (target == NO_MORE_DOCS) { // a conjunction's lead ran out: so does this clause
      return doc = NO_MORE_DOCS;
    }
    int g = groups.atOrAfter(target);
    while (true) {
      while (g < groups.count() && groups.first(g) <= target && !mayHold(g)) {
        target = groups.end(g);
        g++;
      }
      doc = values.advance(target);
      if (doc == NO_MORE_DOCS) {
        return doc;
      }
      while (g < groups.count() && groups.end(g) <= doc) {
        g++;
      }
      if (g == groups.count() || groups.first(g) > doc || mayHold(g)) {
        return doc;
      }
      target = doc; // in a group that says no: skipped above
    }
  }

  private boolean mayHold(int g) throws IOException {
    if (answers[g] == UNKNOWN) {
      boolean may = every;
      for (long hash : hashes) {
        if (values.groupMayContain(g, hash) != every) {
          may = !every;
          break;
        }
      }
      answers[g] = may ? MAYBE : NO;
    }
    return answers[g] == MAYBE;
  }

  @Override
  public long cost() {
    return values.cost();
  }
}
