package io.quarry.codecs.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.SortedSetDocValues;
import org.apache.lucene.index.TermsEnum;

/**
 * The keyword dictionaries of one segment decoded whole ({@link OrdinalTexts}), shared by the
 * slices of one scan of it ({@link ParallelScan}: a segment is cut into slices that run on several
 * threads): the first slice that needs a field's dictionary decodes it, the others take the same
 * array (waiting while it is decoded) — one pass over the terms per segment and scan, not one per
 * slice, and one copy of the texts in memory. Dropped with the scan.
 */
final class SegmentDictionaries {
  private final ConcurrentHashMap<String, String[]> decoded = new ConcurrentHashMap<>();

  /** Every value of {@code field} by ordinal, {@code dictionary} its segment's values. */
  String[] decoded(String field, SortedSetDocValues dictionary) throws IOException {
    try {
      return decoded.computeIfAbsent(field, f -> decodeAll(dictionary));
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Every value of {@code field} by ordinal when a slice decoded them already, else null. */
  String[] ifDecoded(String field) {
    return decoded.get(field);
  }

  /** Every value of {@code dictionary} by ordinal, in one pass over its terms. */
  private static String[] decodeAll(SortedSetDocValues dictionary) {
    try {
      String[] all = new String[(int) dictionary.getValueCount()];
      TermsEnum terms = dictionary.termsEnum();
      for (int ord = 0; ord < all.length && terms.next() != null; ord++) {
        all[ord] = terms.term().utf8ToString();
      }
      return all;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
