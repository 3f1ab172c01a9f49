package io.quarry.benchmarks.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.lucene.index.IndexNotFoundException;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * What an index's store holds, bucket by bucket, as its files say: the layout each bucket recorded
 * when it was made ({@code bucket.format}: {@code blocks 3} is term filters, {@code blocks 2}
 * postings; no file: {@code events}) and its last commit's segments (how many, documents, how many
 * still hold fast journal blocks that wait for compaction). Read from the directory, not asked of
 * the server: the server lists a bucket's format without its layout version, and no segment counts
 * — which is what a search's cost follows (one pass per segment) and what the ingest record has to
 * hold to tell one store from another.
 *
 * @param buckets one per bucket directory, in id order
 */
record StoreShape(List<Bucket> buckets) {
  /** The segment attribute the journal writes ({@code JournalStoredFieldsFormat}). */
  static final String COMPACT_ATTRIBUTE =
      io.quarry.codecs.journal.JournalStoredFieldsFormat.COMPACT_ATTRIBUTE;

  /**
   * One bucket.
   *
   * @param layout its recorded layout ({@code events}, {@code blocks}, {@code blocks 2}, {@code
   *     blocks 3})
   * @param segments segments of its last commit (0: none yet)
   * @param documents their documents (events, or blocks of events)
   * @param fastSegments those whose journal is fast (waiting for compaction)
   */
  record Bucket(String id, String layout, int segments, long documents, int fastSegments) {}

  StoreShape {
    buckets = List.copyOf(buckets);
  }

  /** The shape of the index whose directory is {@code indexDirectory} ({@code data/indexes/x}). */
  static StoreShape read(Path indexDirectory) throws IOException {
    Path bucketsDirectory = indexDirectory.resolve("buckets");
    List<Path> directories;
    try (Stream<Path> listed = Files.list(bucketsDirectory)) {
      directories =
          listed
              .filter(Files::isDirectory)
              .filter(p -> p.getFileName().toString().matches("\\d+"))
              .sorted(
                  (a, b) ->
                      Long.compare(
                          Long.parseLong(a.getFileName().toString()),
                          Long.parseLong(b.getFileName().toString())))
              .toList();
    }
    List<Bucket> buckets = new ArrayList<>();
    for (Path directory : directories) {
      buckets.add(bucket(directory));
    }
    return new StoreShape(buckets);
  }

  private static Bucket bucket(Path directory) throws IOException {
    Path marker = directory.resolve("bucket.format");
    String layout =
        Files.exists(marker) ? Files.readString(marker, StandardCharsets.UTF_8).strip() : "events";
    int segments = 0;
    long documents = 0;
    int fast = 0;
    try (Directory lucene = FSDirectory.open(directory)) {
      SegmentInfos infos = SegmentInfos.readLatestCommit(lucene);
      for (SegmentCommitInfo segment : infos) {
        segments++;
        documents += segment.info.maxDoc();
        if ("false".equals(segment.info.getAttribute(COMPACT_ATTRIBUTE))) {
          fast++;
        }
      }
    } catch (IndexNotFoundException noCommitYet) {
      // a bucket made but never committed: no segments
    }
    return new Bucket(directory.getFileName().toString(), layout, segments, documents, fast);
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

  /** One line: each bucket's layout and segments. */
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
    return parts.isEmpty() ? "no buckets" : String.join("; ", parts);
  }

  /** For the JSON report: one map per bucket. */
  List<Map<String, Object>> report() {
    List<Map<String, Object>> report = new ArrayList<>();
    for (Bucket bucket : buckets) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("bucket", bucket.id());
      entry.put("layout", bucket.layout());
      entry.put("segments", bucket.segments());
      entry.put("documents", bucket.documents());
      entry.put("fastSegments", bucket.fastSegments());
      report.add(entry);
    }
    return report;
  }
}
