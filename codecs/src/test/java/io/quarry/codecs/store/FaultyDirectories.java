package io.quarry.codecs.store;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * Bucket directories that stop or fail a writer where a test wants it: at the first file opened in
 * a given {@link IOContext} (a flush's stored-fields file, a merge's first output).
 */
final class FaultyDirectories {
  private FaultyDirectories() {}

  /**
   * Directories whose first file opened where {@code when} holds (a stored-fields file, or its
   * temporary file in a time-sorted bucket) waits there, after counting down {@code entered}, until
   * {@code release}.
   */
  static BucketDirectories holding(
      Predicate<IOContext> when, CountDownLatch entered, CountDownLatch release) {
    return holdingAt(when, 1, entered, release);
  }

  /**
   * As {@link #holding}, at the {@code nth} file opened where {@code when} holds: the writer has
   * written the files before it.
   */
  static BucketDirectories holdingAt(
      Predicate<IOContext> when, int nth, CountDownLatch entered, CountDownLatch release) {
    java.util.concurrent.atomic.AtomicInteger opened =
        new java.util.concurrent.atomic.AtomicInteger();
    return opening(
        (name, context) -> {
          if (when.test(context) && opened.incrementAndGet() == nth) {
            await(entered, release);
          }
        });
  }

  /**
   * Directories where every file opened in a compaction's merge ({@link #compaction}) whose name
   * ends with {@code suffix} waits, after counting down {@code entered}, until {@code release}.
   */
  static BucketDirectories holdingCompactions(
      String suffix, CountDownLatch entered, CountDownLatch release) {
    return opening(
        (name, context) -> {
          if (compaction(context) && name.endsWith(suffix)) {
            await(entered, release);
          }
        });
  }

  private static void await(CountDownLatch entered, CountDownLatch release) throws IOException {
    entered.countDown();
    try {
      release.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /**
   * Whether {@code context} is a deferred compaction's merge ({@link CompactionMergePolicy}): an
   * idle or bounded one, or the one ahead of a roll.
   */
  static boolean compaction(IOContext context) {
    if (context.context() != IOContext.Context.MERGE) {
      return false;
    }
    int segments = context.mergeInfo().mergeMaxNumSegments();
    return segments == CompactionMergePolicy.COMPACT
        || segments == CompactionMergePolicy.COMPACT_FOR_ROLL;
  }

  /**
   * As {@link #holding}, counting in {@code rollMergeFiles} every file a roll's own forced merge
   * ({@link #rollMerge}) opens.
   */
  static BucketDirectories countingRollMerges(
      java.util.concurrent.atomic.AtomicInteger rollMergeFiles,
      Predicate<IOContext> hold,
      CountDownLatch entered,
      CountDownLatch release) {
    return holding(
        context -> {
          if (rollMerge(context)) {
            rollMergeFiles.incrementAndGet();
          }
          return hold.test(context);
        },
        entered,
        release);
  }

  /** Whether {@code context} is a roll's own forced merge (to a few segments, under its lock). */
  static boolean rollMerge(IOContext context) {
    return context.context() == IOContext.Context.MERGE
        && context.mergeInfo().mergeMaxNumSegments() == CompactionMergePolicy.ROLL_SEGMENTS;
  }

  /** Directories where opening a file for which {@code when} holds throws an I/O error. */
  static BucketDirectories failing(Predicate<IOContext> when) {
    return opening(
        (name, context) -> {
          if (when.test(context)) {
            throw new IOException("injected: no file may be opened in " + context.context());
          }
        });
  }

  /**
   * Directories whose every {@code sync} (a commit's fsync of its files), once {@code armed}, waits
   * after counting down {@code entered} until {@code release}: a disk whose fsync stalls.
   */
  static BucketDirectories holdingSyncs(
      java.util.concurrent.atomic.AtomicBoolean armed,
      CountDownLatch entered,
      CountDownLatch release) {
    return path ->
        new FilterDirectory(FSDirectory.open(path)) {
          @Override
          public void sync(java.util.Collection<String> names) throws IOException {
            if (armed.get()) {
              await(entered, release);
            }
            super.sync(names);
          }
        };
  }

  /**
   * Directories that, while {@code broken}, fail as a broken disk does: opening a bucket's
   * directory (the reopen of a failed writer) and creating any file in it (a flush, a commit) throw
   * an I/O error. A commit while broken makes the bucket's writer fail; the next add then fails in
   * the reopen, before its batch is logged.
   */
  static BucketDirectories brokenWhile(java.util.concurrent.atomic.AtomicBoolean broken) {
    BucketDirectories files =
        opening(
            (name, context) -> {
              if (broken.get()) {
                throw new IOException("injected: the disk is broken; " + name + " not created");
              }
            });
    return path -> {
      if (broken.get()) {
        throw new IOException("injected: the disk is broken; " + path + " not opened");
      }
      return files.open(path);
    };
  }

  /** What happens as a file is opened for writing. */
  @FunctionalInterface
  private interface Opening {
    void open(String name, IOContext context) throws IOException;
  }

  private static BucketDirectories opening(Opening opening) {
    return path ->
        new FilterDirectory(FSDirectory.open(path)) {
          @Override
          public IndexOutput createOutput(String name, IOContext context) throws IOException {
            opening.open(name, context);
            return super.createOutput(name, context);
          }

          @Override
          public IndexOutput createTempOutput(String prefix, String suffix, IOContext context)
              throws IOException {
            opening.open(prefix + suffix, context);
            return super.createTempOutput(prefix, suffix, context);
          }
        };
  }
}
