package io.quarry.codecs.store;

/**
 * The order of a block's events newest first, events of equal time in the order they came: a stable
 * merge sort of their indexes by time, on primitive arrays. It replaced {@code Arrays.sort} of
 * boxed indexes with a comparator (session 41): {@code java.util.TimSort}'s methods ({@code
 * mergeLo}, {@code mergeHi}, {@code binarySort}) were compiled by C2 26–30 times in a 2M-line
 * ingest, ~10% of its C2 code (JFR's {@code jdk.Compilation}), for a sort of at most a block's
 * events.
 */
final class NewestFirst {
  private NewestFirst() {}

  /**
   * The indexes of {@code times}, newest (largest) first; indexes of equal times ascending.
   *
   * @param times the events' times, in the order they came
   */
  static int[] order(long[] times) {
    int n = times.length;
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    if (n < 2) {
      return order;
    }
    int[] scratch = new int[n];
    for (int width = 1; width < n; width *= 2) {
      for (int lo = 0; lo < n - width; lo += 2 * width) {
        merge(times, order, scratch, lo, lo + width, Math.min(lo + 2 * width, n));
      }
    }
    return order;
  }

  /** Merges the ordered runs {@code [lo, mid)} and {@code [mid, hi)} of {@code order}. */
  private static void merge(long[] times, int[] order, int[] scratch, int lo, int mid, int hi) {
    if (times[order[mid - 1]] >= times[order[mid]]) {
      return; // the left run's oldest is no older than the right run's newest: in order already
    }
    System.arraycopy(order, lo, scratch, lo, hi - lo);
    int left = lo;
    int right = mid;
    int at = lo;
    while (left < mid && right < hi) {
      // the right run's event first only when strictly newer: equal times keep their order
      if (times[scratch[right]] > times[scratch[left]]) {
        order[at++] = scratch[right++];
      } else {
        order[at++] = scratch[left++];
      }
    }
    while (left < mid) {
      order[at++] = scratch[left++];
    }
    while (right < hi) {
      order[at++] = scratch[right++];
    }
  }
}
