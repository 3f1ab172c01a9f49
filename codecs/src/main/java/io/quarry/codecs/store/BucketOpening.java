package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.util.IOUtils;

/**
 * The buckets an index opens with: every bucket directory, oldest first, after an interrupted
 * conversion is finished ({@link BucketConversion#finishInterrupted}); a bucket that does not open
 * is quarantined, an older bucket left un-rolled (by a close or a crash while it compacted ahead of
 * its roll) starts that compaction again and waits for its roll, which a later commit does ({@code
 * IndexStore}): the open does not wait for a bucket's zstd-9 rewrite. A new hot bucket is made when
 * none is left.
 *
 * @param buckets every bucket opened, the hot one among them
 * @param hot the bucket that takes writes
 */
record BucketOpening(List<Bucket> buckets, Bucket hot) {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  /**
   * Opens the buckets of {@code index} in {@code bucketsPath}; on a failure closes those it opened.
   */
  static BucketOpening open(
      String index,
      Path bucketsPath,
      IndexOptions options,
      long nowMillis,
      BucketDirectories directories,
      DamagedBuckets damaged,
      CompactionPermits permits)
      throws IOException {
    BucketConversion.finishInterrupted(index, bucketsPath);
    List<Long> ids = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(bucketsPath)) {
      for (Path directory : stream) {
        try {
          ids.add(Long.parseLong(directory.getFileName().toString()));
        } catch (NumberFormatException e) {
          LOG.warning("index " + index + ": ignoring unexpected entry " + directory);
        }
      }
    }
    ids.sort(null);
    List<Bucket> buckets = new ArrayList<>();
    Bucket hot = null;
    try {
      for (long id : ids) {
        Path path = bucketsPath.resolve(Long.toString(id));
        Bucket bucket;
        try {
          bucket = Bucket.open(id, path, options, nowMillis, directories);
        } catch (CorruptIndexException
            | IndexFormatTooOldException
            | IndexFormatTooNewException
            | NoSuchFileException
            | NumberFormatException e) {
          damaged.move(path, e);
          continue;
        }
        buckets.add(bucket);
        if (!bucket.isWarm()) {
          if (hot != null && !hot.hotCompaction().compactBeforeRoll(permits, true)) {
            hot.roll(); // compaction inline, or nothing left to compact: the roll is short
          }
          hot = bucket;
        }
      }
      if (hot == null) {
        long id = ids.isEmpty() ? 1 : ids.get(ids.size() - 1) + 1;
        hot =
            Bucket.open(
                id, bucketsPath.resolve(Long.toString(id)), options, nowMillis, directories);
        buckets.add(hot);
      }
    } catch (IOException | RuntimeException e) {
      IOUtils.closeWhileHandlingException(buckets);
      throw e;
    }
    return new BucketOpening(buckets, hot);
  }
}
