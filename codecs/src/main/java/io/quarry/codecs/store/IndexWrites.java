package io.quarry.codecs.store;

import io.quarry.codecs.wal.EncodedBatch;
import io.quarry.codecs.wal.WriteAheadLog;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Logger;

/**
 * The write path of one index ({@link IndexStore}): sequence numbers, the write-ahead log, the hot
 * bucket taking the adds, and the adds in flight.
 *
 * <p>A batch gets consecutive sequence numbers and is appended to the log in one step (so log order
 * is sequence order); then it is added to the hot bucket, concurrently with other batches (Lucene
 * indexes on every writing thread); then the caller waits for the log's group fsync ({@link
 * LoggedBatch#awaitDurable}), after which the batch survives a crash.
 *
 * <p><b>Locks</b>, taken after the index's commit lock ({@link IndexCommits}): {@link #addLock}
 * (its read side for adds and the log's roll, its write side for {@link #recover}, under which
 * {@link LogRecovery} reopens failed buckets and replays the log), then {@code sequenceLock}
 * (sequence numbers with the log append; the roll's swap of the log, the hot bucket and {@link
 * InFlightAdds}).
 */
final class IndexWrites {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private final String name;
  private final List<Bucket> buckets; // the index's
  private final BatchLayouts layouts;
  private final LogRecovery recovery; // replays the log after a write failure
  private final WriteAheadLog wal;

  /**
   * Adds and the commit's roll of the log hold the read side; rebuilding failed buckets ({@link
   * #recover}) holds the write side.
   */
  private final ReentrantReadWriteLock addLock = new ReentrantReadWriteLock();

  /** Makes sequence assignment and the log append one step. */
  private final Object sequenceLock = new Object();

  private volatile Bucket hot;
  private long nextSequence; // guarded by sequenceLock

  /**
   * The adds that appended to the current log generation and may still be adding to the hot bucket
   * (guarded by sequenceLock): the commit's roll starts a new count, then waits for the old one to
   * drain instead of taking the write side of {@link #addLock}, which had held up both ingest
   * threads for the adds' indexing in progress at every commit.
   */
  private InFlightAdds inFlight = new InFlightAdds();

  private volatile boolean closed; // set by the index's close, under its commit lock

  IndexWrites(
      String name,
      List<Bucket> buckets,
      BatchLayouts layouts,
      LogRecovery recovery,
      LogRecovery.Opened log,
      Bucket hot) {
    this.name = name;
    this.buckets = buckets;
    this.layouts = layouts;
    this.recovery = recovery;
    this.wal = log.log();
    this.nextSequence = log.nextSequence();
    this.hot = hot;
  }

  /** The bucket taking writes. */
  Bucket hot() {
    return hot;
  }

  /** The index's write-ahead log. */
  WriteAheadLog log() {
    return wal;
  }

  boolean closed() {
    return closed;
  }

  /** From now on no write recovers a bucket (the index closes). */
  void markClosed() {
    closed = true;
  }

  /**
   * Rebuilds writers lost to an I/O failure (a full disk, a failed flush or roll) without a restart
   * ({@link LogRecovery}: each failed bucket is reopened from its last commit and the log is
   * replayed into the hot bucket) under the write side of {@link #addLock}. Throws when the disk
   * still fails; the next write tries again.
   *
   * <p>Looked at first without the lock: every add calls this, and taking the write side each time
   * waited for the add in progress to finish indexing, so two ingest threads never indexed at once
   * (a bucket failing after the look fails that add, as one failing during it always did).
   */
  void recover() throws IOException {
    if (closed || buckets.stream().noneMatch(Bucket::failed)) {
      return;
    }
    addLock.writeLock().lock();
    try {
      if (closed || buckets.stream().noneMatch(Bucket::failed)) {
        return;
      }
      hot = recovery.reopenFailed(hot);
      long replayed = recovery.replayLog(wal, hot);
      LOG.warning(
          "index "
              + name
              + ": recovered from a write failure; "
              + replayed
              + " logged events re-added");
    } finally {
      addLock.writeLock().unlock();
    }
  }

  /**
   * Appends checked events to the log and adds them to the hot bucket; the caller waits for the
   * log's group fsync ({@link LoggedBatch#awaitDurable}) before anything acknowledges them (an
   * ingest pipeline is handed on before that wait: it takes no CPU).
   */
  LoggedBatch append(List<Event> events) throws IOException {
    recover();
    // each _raw's bytes once, for the log, the block and its terms: an event broken from a body
    // holds its range of it already; another ASCII text is encoded here
    events = BatchLayouts.withAsciiBytes(events);
    EncodedBatch encoded = EncodedBatch.reusing(events);
    long position;
    addLock.readLock().lock();
    try {
      long first;
      Bucket target;
      InFlightAdds adds;
      synchronized (sequenceLock) {
        first = nextSequence;
        try {
          position = wal.append(first, encoded);
        } finally {
          encoded.giveBack(); // written (or cut back): the array may take another batch
        }
        nextSequence = first + events.size();
        target = hot; // the bucket of the log generation appended to
        adds = inFlight;
        adds.enter();
      }
      try {
        layouts.addTo(target, events, first);
      } finally {
        adds.leave();
      }
    } finally {
      addLock.readLock().unlock();
    }
    return new LoggedBatch(wal, position, encoded.rawBytes());
  }

  /**
   * Throws {@link WriteAheadLog.RecordTooLarge} when {@link #append} would refuse {@code events} as
   * one batch too large for a record of this index's log ({@link IndexOptions#maxRecordBytes});
   * stores nothing. Counts the batch's encoded bytes without encoding it ({@link
   * EncodedBatch#lengthOf}).
   */
  void requireFits(List<Event> events) throws IOException {
    WriteAheadLog.requireFits(EncodedBatch.lengthOf(events), wal.maxRecordBytes());
  }

  /** What a commit's roll of the log swapped: the log files before it, and the adds to wait for. */
  record LogRoll(long generation, Bucket committing, InFlightAdds appendedBefore) {}

  /**
   * Rolls the log to a new file and, with {@code next}, makes it the hot bucket: only the appends
   * wait, for the roll's fsync; the adds of the old generation are counted in the result's {@link
   * InFlightAdds}, for the commit to wait for. On failure {@code next} is closed.
   */
  LogRoll rollLog(Bucket next) throws IOException {
    // the read side keeps recover() from swapping buckets meanwhile, and lets adds go on
    addLock.readLock().lock();
    try {
      synchronized (sequenceLock) {
        long generation = wal.roll();
        Bucket committing = hot;
        if (next != null) {
          buckets.add(next);
          hot = next;
        }
        InFlightAdds appendedBefore = inFlight;
        inFlight = new InFlightAdds();
        return new LogRoll(generation, committing, appendedBefore);
      }
    } catch (IOException | RuntimeException e) {
      if (next != null && hot != next) {
        IndexStore.closeQuietly(next, e);
      }
      throw e;
    } finally {
      addLock.readLock().unlock();
    }
  }
}
