package io.quarry.codecs.block;

import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.BytesRef;

/**
 * The {@link CommonTerms} list of a merged segment (session 39): a hash some input lists is listed
 * when at least {@link CommonTerms#SHARE} of the merged blocks may hold it, counting every block of
 * the inputs that list it and, in the inputs that do not, the blocks whose filters say "maybe" (a
 * probe of each such block's group and own filter). A filter holds no terms, so a merge cannot
 * count what no input lists; but an input without a list — a flush of fewer than {@link
 * CommonTerms#MIN_BLOCKS} blocks, or a segment merged before this rule — keeps such hashes in its
 * filters, and probing them is what lets the merged segment list them again.
 *
 * <p>Why it matters (measured at 10M lines, docs/design/block-index.md "Term filters at 10M"): the
 * earlier rule counted only the listing inputs, so one input without a list holding more than a
 * tenth of the merged blocks emptied the merged list, and the writer then added every common hash
 * back into the filters of the inputs that had left it out ({@link TermFilter#addTo}: the filters
 * keep their size). Every later merge of that segment kept the list empty: the 10M store's two
 * segments listed nothing, their block filters were 63% full instead of ~55%, and a block's false
 * "maybe" rose from the ~1.3% its 10 bits an entry give to 3.6% on average.
 */
final class MergedCommonTerms {
  private MergedCommonTerms() {}

  /** One input of a merge: its list, its blocks, and a fresh iterator of its filters (or null). */
  record Input(long[] list, int blocks, BinaryDocValues values) {}

  /** The merged list, sorted, from the inputs' lists and, where an input lacks a hash, a probe. */
  static long[] of(Input[] inputs) throws IOException {
    long total = 0;
    int size = 0;
    for (Input input : inputs) {
      total += input.blocks();
      size += input.list().length;
    }
    if (total < CommonTerms.MIN_BLOCKS || size == 0) {
      return CommonTerms.NONE;
    }
    long[] candidates = new long[size];
    int p = 0;
    for (Input input : inputs) {
      System.arraycopy(input.list(), 0, candidates, p, input.list().length);
      p += input.list().length;
    }
    Arrays.sort(candidates);
    int distinct = 0;
    for (int i = 0; i < size; i++) {
      if (i == 0 || candidates[i] != candidates[i - 1]) {
        candidates[distinct++] = candidates[i];
      }
    }
    candidates = Arrays.copyOf(candidates, distinct);
    // the blocks each candidate may be missing from and still be listed; below zero: not listed
    long least = (long) Math.ceil(CommonTerms.SHARE * total);
    long[] missesLeft = new long[distinct];
    Arrays.fill(missesLeft, total - least);
    for (Input input : inputs) {
      boolean[] probed = new boolean[distinct];
      boolean any = false;
      for (int k = 0; k < distinct; k++) {
        probed[k] = !CommonTerms.contains(input.list(), candidates[k]);
        any |= probed[k];
      }
      if (any && input.blocks() > 0) {
        probe(input, candidates, probed, missesLeft);
      }
    }
    long[] listed = new long[distinct];
    int n = 0;
    for (int k = 0; k < distinct; k++) {
      if (missesLeft[k] >= 0) {
        listed[n++] = candidates[k];
      }
    }
    return Arrays.copyOf(listed, n);
  }

  /**
   * Counts against each probed candidate the input's blocks whose filters say "no" (a document
   * without a filter is no candidate of any search, so it counts as holding, as in a listing
   * input). A candidate past its misses is no longer probed.
   */
  private static void probe(Input input, long[] candidates, boolean[] probed, long[] missesLeft)
      throws IOException {
    BinaryDocValues values = input.values();
    if (values instanceof TermFilterValues own) {
      TermFilterGroups groups = own.groups();
      int group = -2; // no document seen yet (-1: a document in no group)
      boolean[] groupMaybe = new boolean[candidates.length];
      for (int doc = own.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = own.nextDoc()) {
        int g = groups.of(doc);
        if (g != group) {
          group = g;
          for (int k = 0; k < candidates.length; k++) {
            groupMaybe[k] =
                probed[k] && missesLeft[k] >= 0 && (g < 0 || own.groupMayContain(g, candidates[k]));
          }
        }
        for (int k = 0; k < candidates.length; k++) {
          if (probed[k]
              && missesLeft[k] >= 0
              && !(groupMaybe[k] && own.filterMayContain(candidates[k]))) {
            missesLeft[k]--;
          }
        }
      }
    } else if (values != null) { // filters in Lucene's doc values (before session 28): copied
      for (int doc = values.nextDoc();
          doc != DocIdSetIterator.NO_MORE_DOCS;
          doc = values.nextDoc()) {
        BytesRef filter = values.binaryValue();
        for (int k = 0; k < candidates.length; k++) {
          if (probed[k] && missesLeft[k] >= 0 && !TermFilter.mayContain(filter, candidates[k])) {
            missesLeft[k]--;
          }
        }
      }
    }
  }
}
