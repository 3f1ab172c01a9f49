package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import org.apache.lucene.store.Directory;

/**
 * An index's disk: opens the Lucene directory of a bucket's path (each bucket has its own
 * directory) and forces the index's write-ahead log file after a batch's appends (a new file's
 * header, quarantine and manifest fsyncs do not pass through it). The store opens {@link #DEFAULT}
 * ({@code FSDirectory}s writing large: {@code LargeWriteDirectory}) and forces with {@code
 * force(false)}; tests slow or fail one index's disk through it, in the codecs ({@code
 * FaultyDirectories}) and on a real server ({@link EventStore#open(Path, java.util.Map,
 * java.time.Clock, int, java.util.function.Function)}).
 */
@FunctionalInterface
public interface BucketDirectories {
  /** What a store opens unless a test gives other directories: file-system ones, writing large. */
  BucketDirectories DEFAULT = LargeWriteDirectory::open;

  /** Opens the Lucene directory of the bucket in {@code bucket}. */
  Directory open(Path bucket) throws IOException;

  /**
   * Forces a write-ahead log file of the index to stable storage ({@link
   * io.quarry.codecs.wal.WriteAheadLog#FORCE}), unless a test slows or fails it.
   */
  default void forceLog(FileChannel log) throws IOException {
    io.quarry.codecs.wal.WriteAheadLog.FORCE.force(log);
  }
}
