package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** What an index's buckets answer together: the ones a time range reads, their statistics. */
final class BucketListing {
  private BucketListing() {}

  /** The buckets whose time bounds overlap {@code [earliest, latest)}. */
  static List<Bucket> overlapping(List<Bucket> buckets, long earliest, long latest) {
    List<Bucket> chosen = new ArrayList<>();
    for (Bucket bucket : buckets) {
      if (bucket.overlaps(earliest, latest)) {
        chosen.add(bucket);
      }
    }
    return chosen;
  }

  /** Every bucket's statistics. */
  static List<BucketInfo> infos(List<Bucket> buckets) throws IOException {
    List<BucketInfo> infos = new ArrayList<>();
    for (Bucket bucket : buckets) {
      infos.add(BucketInfo.of(bucket));
    }
    return infos;
  }

  /**
   * The bytes of every bucket's searchable segments by what they hold ({@link FileKinds}), but a
   * failed bucket's (listed {@code failed}, {@link BucketInfo#of}): no searcher reads it until it
   * is recovered.
   */
  static Map<String, Long> bytesByKind(List<Bucket> buckets) throws IOException {
    Map<String, Long> totals = FileKinds.empty();
    for (Bucket bucket : buckets) {
      Map<String, Long> kinds;
      try {
        kinds = bucket.failed() ? Map.of() : BucketBytes.byKind(bucket);
      } catch (IOException e) {
        if (!bucket.failed()) {
          throw e;
        }
        continue; // failed meanwhile
      }
      kinds.forEach((kind, bytes) -> totals.merge(kind, bytes, Long::sum));
    }
    return totals;
  }
}
