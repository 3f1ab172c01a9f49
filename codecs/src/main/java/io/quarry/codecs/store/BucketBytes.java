package io.quarry.codecs.store;

import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FilterLeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.store.Directory;

/**
 * The bytes one bucket holds, for statistics and retention: its searchable segments' bytes by what
 * they hold, its last commit's bytes, and its directory's size on disk (its journal's bytes by
 * kind: {@link BucketSegments}).
 */
final class BucketBytes {
  private BucketBytes() {}

  /**
   * The bytes of the segments a search of the bucket sees now, by what they hold ({@link
   * FileKinds}); the files of a segment being written or merged away are not counted.
   */
  static Map<String, Long> byKind(Bucket bucket) throws IOException {
    Map<String, Long> totals = FileKinds.empty();
    IndexSearcher searcher = bucket.acquire();
    try {
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        if (FilterLeafReader.unwrap(leaf.reader()) instanceof SegmentReader segment) {
          FileKinds.add(segment.directory(), segment.getSegmentInfo(), totals);
        }
      }
    } finally {
      bucket.release(searcher);
    }
    return totals;
  }

  /**
   * The bytes of the bucket's last commit (its segments and {@code segments_N}): what a bucket
   * taking writes holds for good, without the segments a running merge writes or the ones a
   * finished merge replaced, both on disk until the next commit ({@link Retention}). 0 before the
   * first commit.
   */
  static long committed(Bucket bucket) throws IOException {
    return committed(bucket, segment -> true);
  }

  /**
   * As {@link #committed}, counting only the segments whose journal is compact: a lower bound of
   * what a full bucket waiting for its roll holds once rolled (its fast segments are compacted into
   * fewer bytes, which its last commit does not hold yet).
   */
  static long committedCompact(Bucket bucket) throws IOException {
    return committed(bucket, segment -> JournalStoredFieldsFormat.isCompact(segment.info));
  }

  private static long committed(Bucket bucket, Predicate<SegmentCommitInfo> counted)
      throws IOException {
    Directory directory = bucket.directory();
    for (int attempt = 0; ; attempt++) {
      try {
        if (!DirectoryReader.indexExists(directory)) {
          return 0;
        }
        SegmentInfos commit = SegmentInfos.readLatestCommit(directory);
        long total = directory.fileLength(commit.getSegmentsFileName());
        for (SegmentCommitInfo segment : commit) {
          total += counted.test(segment) ? segment.sizeInBytes() : 0;
        }
        return total;
      } catch (NoSuchFileException | FileNotFoundException replaced) {
        if (attempt == 2) { // a commit deleted the one read, each time: read the next
          throw replaced;
        }
      }
    }
  }

  /** The bytes of every file in the bucket's directory. */
  static long onDisk(Bucket bucket) throws IOException {
    try (Stream<Path> files = Files.list(bucket.path())) {
      long total = 0;
      for (Path file : files.toList()) {
        total += Files.isRegularFile(file) ? Files.size(file) : 0;
      }
      return total;
    }
  }
}
