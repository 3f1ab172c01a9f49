package io.quarry.codecs.metricstore;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Posting lists of a bucket's series dictionary: for each term {@code name=value} the ascending ids
 * of the series that have it. Terms hold the value lower-cased (searches compare dimension values
 * case-insensitively, as Splunk does); the metric name is the term {@code metric_name=<name>}.
 * Plain sorted {@code int} arrays: a bucket has thousands to a few hundred thousand series, where
 * they intersect as fast as compressed bitmaps and need no dependency.
 */
public final class Postings {
  /** The pseudo-dimension naming the metric in postings and selectors. */
  public static final String METRIC_NAME = "metric_name";

  private Postings() {}

  /** The term of dimension {@code name} having {@code value}. */
  public static String term(String name, String value) {
    return name + "=" + value.toLowerCase(Locale.ROOT);
  }

  /** The ids in all of {@code lists} (each ascending); {@code lists} is not empty. */
  static int[] intersect(List<int[]> lists) {
    int[][] sorted = lists.toArray(new int[0][]);
    Arrays.sort(sorted, (a, b) -> Integer.compare(a.length, b.length));
    int[] result = sorted[0];
    for (int l = 1; l < sorted.length && result.length > 0; l++) {
      int[] other = sorted[l];
      int[] out = new int[result.length];
      int n = 0;
      int j = 0;
      for (int id : result) {
        while (j < other.length && other[j] < id) {
          j++;
        }
        if (j < other.length && other[j] == id) {
          out[n++] = id;
        }
      }
      result = Arrays.copyOf(out, n);
    }
    return result;
  }
}
