package io.quarry.codecs.store;

import java.io.IOException;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;
import org.apache.lucene.util.RamUsageEstimator;

/**
 * A segment of block documents' candidate blocks, found once for all the slices of a parallel scan
 * that cut it (issue 21): each slice building the block query's scorer for the whole segment again
 * (a term range rewritten, its terms' postings opened and their disjunction set up) cost a tenth of
 * {@code status>=500 | stats count by clientip} over 10M events in blocks (77 slices of 128
 * blocks). The first slice to ask iterates the scorer over the segment into a bit set of its block
 * documents (one bit a block: a few KiB); every slice then reads its own range of it.
 *
 * <p>The bit set is charged to the search through the slice that builds it ({@link
 * ScanSlice#charge}) before it is made — over the search's memory limit that slice fails with the
 * search's memory error and nothing is built — and given back exactly once, when the scan ends
 * ({@link #release}, after every slice). The build asks the building slice whether its search
 * stopped (cancelled, finalized, past its time limit, failed: {@link ScanSlice#stopped}) before the
 * scorer and every {@value #CHECK_EVERY} candidates: a stopped build ends, and every slice of the
 * segment reads nothing of it. The other slices of the segment wait on this object's lock while the
 * first builds: a costly block query (a wide wildcard's disjunction) is built by one thread while
 * the segment's other slices wait — with slices of one segment queued together, the search's other
 * threads may idle meanwhile (not measured beyond errors_top_clients and count_by_method_status,
 * where the build is a small part of the scan).
 */
final class LeafMatches {
  /** How many candidates the build adds between two asks whether the search stopped. */
  static final int CHECK_EVERY = 1024;

  private final Weight weight;
  private final LeafReaderContext leaf;
  private boolean found; // guarded by this
  private boolean stopped; // guarded by this: the build ended early, the slices read nothing
  private boolean released; // guarded by this: the scan ended, nothing more is built or charged
  private FixedBitSet matches; // guarded by this; null: no block of the segment matches
  private long cardinality; // guarded by this
  private ScanSlice charged; // guarded by this: the slice the bit set was charged through
  private long chargedBytes; // guarded by this

  LeafMatches(Weight weight, LeafReaderContext leaf) {
    this.weight = weight;
    this.leaf = leaf;
  }

  /**
   * The segment's candidate blocks, found by the first caller (the slices of a segment run on
   * several threads: the others wait for it), charged to the search through {@code asking}; null
   * when none, an empty iterator once the build stopped (the search did) or the scan ended. Each
   * caller gets an iterator of its own.
   *
   * @throws RuntimeException what {@code asking}'s charge throws (the search's memory limit): the
   *     bit set is not built then, nor charged
   */
  synchronized DocIdSetIterator iterator(ScanSlice asking) throws IOException {
    if (!found && !released) {
      build(asking);
    }
    if (stopped || released) {
      return DocIdSetIterator.empty();
    }
    return matches == null ? null : new BitSetIterator(matches, cardinality);
  }

  /** Builds the bit set under the lock, charging it through {@code asking}. */
  private void build(ScanSlice asking) throws IOException {
    if (asking.stopped()) {
      stopped = true;
      found = true;
      return;
    }
    Scorer scorer = weight.scorer(leaf);
    if (scorer != null) {
      int maxDoc = leaf.reader().maxDoc();
      long bytes = bitSetBytes(maxDoc);
      asking.charge(this, bytes); // throws over the limit: nothing built, nothing charged
      charged = asking;
      chargedBytes = bytes;
      FixedBitSet bits = new FixedBitSet(maxDoc);
      DocIdSetIterator docs = scorer.iterator();
      int sinceCheck = 0;
      for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
        bits.set(doc);
        if (++sinceCheck == CHECK_EVERY) {
          sinceCheck = 0;
          if (asking.stopped()) {
            stopped = true;
            found = true;
            return; // the charge stays until the scan ends, with the others' release
          }
        }
      }
      cardinality = bits.cardinality();
      matches = cardinality == 0 ? null : bits; // none: the segment is skipped
    }
    found = true;
  }

  /** The heap a bit set of {@code maxDoc} bits takes: its words and the two objects' headers. */
  static long bitSetBytes(int maxDoc) {
    return RamUsageEstimator.shallowSizeOfInstance(FixedBitSet.class)
        + RamUsageEstimator.alignObjectSize(
            RamUsageEstimator.NUM_BYTES_ARRAY_HEADER
                + (long) Long.BYTES * FixedBitSet.bits2words(maxDoc));
  }

  /**
   * Gives back the bit set's charge, once, and lets nothing be built or charged after: called when
   * the scan ends (after its slices, or while an interrupted scan's slices still run).
   */
  synchronized void release() {
    released = true;
    matches = null;
    if (charged != null) {
      charged.discharge(this, chargedBytes);
      charged = null;
    }
  }
}
