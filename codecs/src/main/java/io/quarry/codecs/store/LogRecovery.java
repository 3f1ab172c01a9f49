package io.quarry.codecs.store;

import io.quarry.codecs.wal.WriteAheadLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;

/**
 * An index's recovery from its write-ahead log, by sequence number: every logged event that no
 * bucket holds ({@code _seq}) is added to the hot bucket, so every acknowledged event is in the
 * index exactly once. It runs when the index opens ({@link #openLog}: the log read back, replayed,
 * rolled and its old files deleted) and after a write failure ({@link #reopenFailed}, then {@link
 * #replayLog}): a bucket whose writer an I/O error closed is reopened from its last commit and the
 * log, which still holds every acknowledged event not yet committed, is replayed.
 *
 * <p><b>Locks.</b> It takes none. {@link #openLog} runs in {@link IndexStore}'s constructor, before
 * the store is shared. {@link #reopenFailed} and {@link #replayLog} expect the caller to hold the
 * write side of {@code IndexStore.addLock}, so no add and no roll of the log runs meanwhile; the
 * caller then stores the hot bucket {@link #reopenFailed} returns.
 */
final class LogRecovery {
  // IndexStore's logger: the messages are the index's, as before this class was split out
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  /** Adds a batch to a bucket in its layout ({@link BatchLayouts#addTo}). */
  @FunctionalInterface
  interface BatchAdd {
    void add(Bucket target, List<Event> events, long firstSequence) throws IOException;
  }

  /** The log opened and replayed, and the sequence number the next event gets. */
  record Opened(WriteAheadLog log, long nextSequence) {}

  /** A batch read back from the log. */
  private record WalBatch(long firstSeq, List<Event> events) {}

  private final String name;
  private final IndexOptions options;
  private final BucketDirectories directories;
  private final IndexCompaction compactions;
  private final List<Bucket>
      buckets; // the index's own list: a reopened bucket replaces its old one
  private final BatchAdd adds;

  LogRecovery(
      String name,
      IndexOptions options,
      BucketDirectories directories,
      IndexCompaction compactions,
      List<Bucket> buckets,
      BatchAdd adds) {
    this.name = name;
    this.options = options;
    this.directories = directories;
    this.compactions = compactions;
    this.buckets = buckets;
    this.adds = adds;
  }

  /**
   * Opens the index's log ({@code wal/}, damaged files to {@code quarantine/}), replays into {@code
   * hot} every logged event no bucket holds, then rolls the log and deletes the files before the
   * roll. Closes the log when this fails.
   */
  Opened openLog(Path path, Bucket hot) throws IOException {
    WriteAheadLog log = null;
    try {
      List<WalBatch> logged = new ArrayList<>();
      log =
          WriteAheadLog.open(
              path.resolve("wal"),
              path.resolve("quarantine"),
              (first, events) -> logged.add(new WalBatch(first, events)),
              options.maxRecordBytes(),
              directories::forceLog);
      long last = buckets.stream().mapToLong(Bucket::maxSequence).max().orElse(-1);
      for (WalBatch batch : logged) {
        last = Math.max(last, batch.firstSeq() + batch.events().size() - 1);
      }
      long replayed = replay(logged, hot);
      if (replayed > 0) {
        LOG.info("index " + name + ": replayed " + replayed + " events from the write-ahead log");
      }
      log.deleteBefore(log.roll());
      return new Opened(log, last + 1);
    } catch (IOException | RuntimeException e) {
      org.apache.lucene.util.IOUtils.closeWhileHandlingException(log);
      throw e;
    }
  }

  /**
   * Reopens from its last commit every bucket whose writer failed, in its place in the list; a full
   * bucket that waited for its roll waits again. Expects the write side of the add lock.
   *
   * @return the hot bucket: {@code hot}, or the bucket reopened in its place
   */
  Bucket reopenFailed(Bucket hot) throws IOException {
    for (int i = 0; i < buckets.size(); i++) {
      Bucket failed = buckets.get(i);
      if (!failed.failed()) {
        continue;
      }
      compactions.writerFailed(failed);
      try {
        failed.close();
      } catch (IOException | RuntimeException e) {
        LOG.log(Level.FINE, "index " + name + ": closing failed bucket " + failed.id(), e);
      }
      Bucket reopened =
          Bucket.open(failed.id(), failed.path(), options, failed.created(), directories);
      compactions.join(reopened);
      if (hot != failed && failed.hotCompaction().waitsForRoll()) {
        // full, its roll failed: it waits again, starting nothing (a later commit rolls it)
        reopened.hotCompaction().compactBeforeRoll(compactions.node(), false);
      }
      buckets.set(i, reopened);
      if (hot == failed) {
        hot = reopened;
      }
      LOG.warning("index " + name + ": reopened bucket " + failed.id() + " after a write failure");
    }
    return hot;
  }

  /**
   * Reads the open log back and replays it into {@code hot} ({@link #replay}). Expects the write
   * side of the add lock.
   *
   * @return the number of events added
   */
  long replayLog(WriteAheadLog wal, Bucket hot) throws IOException {
    List<WalBatch> logged = new ArrayList<>();
    wal.replay((first, events) -> logged.add(new WalBatch(first, events)));
    return replay(logged, hot);
  }

  /**
   * Adds to the hot bucket every logged event that no bucket holds (by sequence number), then
   * commits and refreshes it.
   *
   * @return the number of events added
   */
  private long replay(List<WalBatch> logged, Bucket hot) throws IOException {
    if (logged.isEmpty()) {
      return 0;
    }
    long low = Long.MAX_VALUE;
    long high = Long.MIN_VALUE;
    for (WalBatch batch : logged) {
      low = Math.min(low, batch.firstSeq());
      high = Math.max(high, batch.firstSeq() + batch.events().size() - 1);
    }
    BitSet present = new BitSet();
    for (Bucket bucket : buckets) {
      collectSequences(bucket, low, high, present);
    }
    long replayed = 0;
    for (WalBatch batch : logged) {
      int missingFrom = -1; // a run of missing events, added as one batch
      for (int i = 0; i <= batch.events().size(); i++) {
        long sequence = batch.firstSeq() + i;
        boolean missing =
            i < batch.events().size() && !present.get(Math.toIntExact(sequence - low));
        if (missing && missingFrom < 0) {
          missingFrom = i;
        } else if (!missing && missingFrom >= 0) {
          adds.add(hot, batch.events().subList(missingFrom, i), batch.firstSeq() + missingFrom);
          present.set(
              Math.toIntExact(batch.firstSeq() + missingFrom - low),
              Math.toIntExact(sequence - low));
          replayed += i - missingFrom;
          missingFrom = -1;
        }
      }
    }
    if (replayed > 0) {
      hot.commit();
      hot.refresh(hot.addedGeneration());
    }
    return replayed;
  }

  /**
   * Sets, in {@code into}, bit {@code s - low} for every sequence number {@code s} in {@code [low,
   * high]} that {@code bucket} holds.
   */
  private static void collectSequences(Bucket bucket, long low, long high, BitSet into)
      throws IOException {
    if (bucket.events() == 0) {
      return;
    }
    IndexSearcher searcher = bucket.acquire();
    try {
      for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
        if (bucket.format() == BucketFormat.BLOCKS) {
          BlockSequences.collect(leaf.reader(), low, high, into);
        } else {
          EventSequences.collect(leaf.reader(), low, high, into);
        }
      }
    } finally {
      bucket.release(searcher);
    }
  }
}
