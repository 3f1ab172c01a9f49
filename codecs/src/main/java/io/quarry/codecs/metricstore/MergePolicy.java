package io.quarry.codecs.metricstore;

import java.util.List;

/**
 * Which warm buckets to merge next: a tiered policy in the spirit of Lucene's, over buckets in the
 * order of their rolls (which is their order in time, but for late points).
 *
 * <p>A candidate is a run of {@link MetricIndexOptions#mergeFactor} buckets adjacent in roll order
 * whose points together stay within {@link MetricIndexOptions#maxMergedPoints} and where no bucket
 * holds more than half of them (merging a big bucket with a few small ones would rewrite the big
 * one again and again). Of the candidates the one with fewest points wins (the oldest on a tie):
 * small buckets merge first, then the buckets so made merge with their peers, so each point is
 * rewritten about log<sub>factor</sub>(cap / bucket size) times, and a bucket at the cap is never
 * rewritten again.
 */
final class MergePolicy {
  private MergePolicy() {}

  /**
   * The buckets to merge, adjacent in {@code byRoll}, or an empty list.
   *
   * @param byRoll the live warm buckets ordered by {@link WarmBucket#firstRoll}
   */
  static List<WarmBucket> select(List<WarmBucket> byRoll, MetricIndexOptions options) {
    int factor = options.mergeFactor();
    if (factor < 2 || byRoll.size() < factor) {
      return List.of();
    }
    int best = -1;
    long bestPoints = Long.MAX_VALUE;
    for (int start = 0; start + factor <= byRoll.size(); start++) {
      long total = 0;
      long largest = 0;
      for (int i = start; i < start + factor; i++) {
        long points = byRoll.get(i).points;
        total += points;
        largest = Math.max(largest, points);
      }
      if (total <= options.maxMergedPoints() && largest * 2 <= total && total < bestPoints) {
        best = start;
        bestPoints = total;
      }
    }
    return best < 0 ? List.of() : List.copyOf(byRoll.subList(best, best + factor));
  }
}
