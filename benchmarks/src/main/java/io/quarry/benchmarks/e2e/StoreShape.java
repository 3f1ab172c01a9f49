package io.quarry.benchmarks.e2e;

import io.quarry.client.BucketSummary;
import io.quarry.client.IndexSummary;
import io.quarry.client.JournalSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What an index's store holds, bucket by bucket, as the server says ({@code GET /api/v1/indexes}:
 * one source of truth with {@code quarry indexes --verbose}): the layout each bucket recorded when
 * it was made ({@code blocks 3} is term filters, {@code blocks 2} postings, {@code events}), the
 * segments a search reads now (how many, their documents), and the journal compression they
 * actually hold — bytes per codec, level, fast (young, waiting for compaction) or compact — which
 * is what a search's cost follows (one pass per segment, a decode per block of its codec) and what
 * the ingest record has to hold to tell one store from another. Until session 41 it was read from
 * the bucket directories, the server listing neither the layout version nor segments.
 *
 * <p>The journal's kinds summed over the buckets are the server's ({@code journal} of the index's
 * entry, {@code rest.IndexRoutes}), not summed again here; the report writes the client's {@link
 * JournalSummary} records as they are, so a field the API adds reaches the report without a copy.
 *
 * @param buckets one per bucket, in the server's order (by id)
 * @param journal the index's journal by kind, summed over its buckets by the server
 */
record StoreShape(List<Bucket> buckets, List<JournalSummary> journal) {
  /**
   * One bucket.
   *
   * @param layout its recorded layout ({@code events}, {@code blocks}, {@code blocks 2}, {@code
   *     blocks 3})
   * @param segments segments a search of it reads (0: none yet)
   * @param documents their documents (events, or blocks of events)
   * @param journal its segments' journal by kind, as they record it
   */
  record Bucket(
      String id, String layout, int segments, long documents, List<JournalSummary> journal) {
    Bucket {
      journal = List.copyOf(journal);
    }

    /** Segments whose journal is fast: waiting for compaction. */
    int fastSegments() {
      return journal.stream()
          .filter(kind -> !kind.compact())
          .mapToInt(JournalSummary::segments)
          .sum();
    }
  }

  StoreShape {
    buckets = List.copyOf(buckets);
    journal = List.copyOf(journal);
  }

  /** The shape of {@code index} as the server lists it. */
  static StoreShape of(IndexSummary index) {
    List<Bucket> buckets = new ArrayList<>();
    for (BucketSummary bucket : index.bucketList()) {
      buckets.add(
          new Bucket(
              Long.toString(bucket.id()),
              bucket.layout(),
              bucket.segments(),
              bucket.documents(),
              bucket.journal()));
    }
    return new StoreShape(buckets, index.journal());
  }

  /** The layouts of the buckets that hold segments, each once, sorted ({@code blocks 3}). */
  String layouts() {
    TreeSet<String> layouts = new TreeSet<>();
    for (Bucket bucket : buckets) {
      if (bucket.segments() > 0) {
        layouts.add(bucket.layout());
      }
    }
    return String.join(", ", layouts);
  }

  /** One line: each bucket's layout and segments, then what the journal holds. */
  String describe() {
    List<String> parts = new ArrayList<>();
    for (Bucket bucket : buckets) {
      parts.add(
          String.format(
              Locale.ROOT,
              "bucket %s (%s): %d segments, %,d documents%s",
              bucket.id(),
              bucket.layout(),
              bucket.segments(),
              bucket.documents(),
              bucket.fastSegments() == 0 ? "" : ", " + bucket.fastSegments() + " fast"));
    }
    if (parts.isEmpty()) {
      return "no buckets";
    }
    List<String> kinds = new ArrayList<>();
    for (JournalSummary kind : journal()) {
      kinds.add(
          String.format(
              Locale.ROOT,
              "%s %,d bytes in %d segments (%.3f per raw byte)",
              name(kind),
              kind.bytes(),
              kind.segments(),
              kind.rawBytes() == 0 ? 0.0 : (double) kind.bytes() / kind.rawBytes()));
    }
    return String.join("; ", parts)
        + (kinds.isEmpty() ? "" : "; journal: " + String.join(", ", kinds));
  }

  /** A journal kind in a few words: {@code zstd 12 compact}. */
  static String name(JournalSummary kind) {
    return kind.codec()
        + (kind.level() < 0 ? "" : " " + kind.level())
        + (kind.compact() ? " compact" : " fast");
  }

  /** For the JSON report: one map per bucket, each with its journal by kind. */
  List<Map<String, Object>> report() {
    List<Map<String, Object>> report = new ArrayList<>();
    for (Bucket bucket : buckets) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("bucket", bucket.id());
      entry.put("layout", bucket.layout());
      entry.put("segments", bucket.segments());
      entry.put("documents", bucket.documents());
      entry.put("fastSegments", bucket.fastSegments());
      entry.put("journal", bucket.journal()); // the client's records, as Jackson writes them
      report.add(entry);
    }
    return report;
  }
}
