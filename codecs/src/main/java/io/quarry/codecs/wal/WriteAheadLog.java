package io.quarry.codecs.wal;

import io.quarry.codecs.store.Event;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.apache.lucene.util.IOUtils;

/**
 * An append-only log of event batches in numbered files {@code wal-<generation>.log}.
 *
 * <p>File: {@code Magic ("QUARRYWL"), Version (int), Generation (long), Record*}; a record is
 * {@code PayloadLength (int), Crc32c (int), Payload} (big-endian), the payload as {@link WalCodec}
 * writes it (version 2, session 35: the events' texts as one body) or, in a file of version 1, as
 * {@link WalRecordV1} reads it. New files are version 2; a log replays files of either. On open
 * every file is read back, oldest first. Only the newest file can end in a write torn by a crash
 * (every older one was forced before the log rolled past it): a last record there that is cut
 * short, fails its checksum at the very end of the file, or is followed by nothing but zeros, is
 * cut off (its bytes kept in the quarantine directory) — it was never acknowledged. Anything else
 * that cannot be read is damage to acknowledged data: the records before it are replayed, the file
 * is moved whole to the quarantine directory, every later file is still replayed, and {@link
 * #damage()} says where and which sequence numbers were lost.
 *
 * <p>The record's framing is {@link WalFile}'s, the checks {@code quarry fsck} runs {@link
 * WalFileCheck}'s, what an open found damaged {@link WalOpening}'s.
 *
 * <p>Appends come from one thread at a time (the index's writer lock); {@link #sync} may be called
 * by many threads at once and shares fsyncs between them: one caller forces the file, every caller
 * whose bytes that covered returns.
 */
public final class WriteAheadLog implements Closeable {
  private static final Logger LOG = Logger.getLogger(WriteAheadLog.class.getName());
  private static final int MAX_VLONG_BYTES = WalFile.MAX_VLONG_BYTES;

  /** Receives the batches found in the log on open, oldest first. */
  @FunctionalInterface
  public interface Replay {
    void batch(long firstSeq, List<Event> events) throws IOException;
  }

  /**
   * A WAL file that could not be read to its end although it was not a torn tail.
   *
   * @param file where the file is now (in the quarantine directory)
   * @param offset the byte where reading stopped
   * @param unreadBytes the bytes from there to the end of the file
   * @param problem what was found at {@code offset}
   * @param lastGoodSeq the last sequence number replayed before the damage (-1: none in the log)
   */
  public record Damage(
      Path file, long offset, long unreadBytes, String problem, long lastGoodSeq) {}

  /**
   * Forces a log file to stable storage: {@code FileChannel.force} ({@link #FORCE}), or a fault or
   * a slow disk in tests.
   */
  @FunctionalInterface
  public interface Forcer {
    void force(FileChannel channel) throws IOException;
  }

  /** Forces a file's data to the disk: {@code FileChannel.force(false)}. */
  public static final Forcer FORCE = channel -> channel.force(false);

  private final Path directory;
  private final Path quarantine;
  private final Forcer forcer;

  /**
   * Why the log stopped accepting writes: the first fsync that failed. After a failed fsync the
   * kernel may have dropped the dirty pages and a retry can "succeed" without the data on disk, so
   * the log fails stop: every later append and sync throws until the server restarts and replays
   * what is really on disk. Guarded by this.
   */
  private IOException failed;

  /** What failed ({@link #failed}): "an fsync failed", or a new file that could not start. */
  private String failedWhat;

  private final List<Damage> damage = new ArrayList<>();
  private FileChannel channel; // guarded by this
  private long generation; // guarded by this
  private long appended; // logical bytes appended over all generations; guarded by this
  private volatile long maxRecordBytes = MAX_RECORD_BYTES; // set once, by open
  private long durable; // guarded by this
  private boolean syncing; // guarded by this

  private WriteAheadLog(Path directory, Path quarantine, Forcer forcer) {
    this.directory = directory;
    this.quarantine = quarantine;
    this.forcer = forcer;
  }

  /**
   * Opens the log in {@code directory}, replaying every record found, then starts a new file. A
   * torn tail's bytes and damaged files go to {@code quarantine}.
   *
   * @return the log, ready for appends; {@link #damage()} lists what could not be replayed
   */
  public static WriteAheadLog open(Path directory, Path quarantine, Replay replay)
      throws IOException {
    return open(directory, quarantine, replay, FORCE);
  }

  /** The largest record the format reads back: 1 GiB. */
  public static final long MAX_RECORD_BYTES = WalFile.MAX_RECORD_BYTES;

  /**
   * As {@link #open(Path, Path, Replay)}, appending no record longer than {@code maxRecordBytes}
   * (at most {@link #MAX_RECORD_BYTES}): a larger batch is refused, nothing written ({@link
   * RecordTooLarge}). Records already in the log replay whatever their length, up to the format's.
   */
  public static WriteAheadLog open(
      Path directory, Path quarantine, Replay replay, long maxRecordBytes) throws IOException {
    return open(directory, quarantine, replay, maxRecordBytes, FORCE);
  }

  /**
   * As {@link #open(Path, Path, Replay, long)}, forcing files through {@code forcer}: {@link
   * #FORCE}, or a test's slow or failing disk (the store's seam, {@code
   * BucketDirectories#forceLog}).
   */
  public static WriteAheadLog open(
      Path directory, Path quarantine, Replay replay, long maxRecordBytes, Forcer forcer)
      throws IOException {
    if (maxRecordBytes < 1 || maxRecordBytes > MAX_RECORD_BYTES) {
      throw new IllegalArgumentException(
          "maxRecordBytes must be between 1 and " + MAX_RECORD_BYTES + ": " + maxRecordBytes);
    }
    WriteAheadLog log = open(directory, quarantine, replay, forcer);
    log.maxRecordBytes = maxRecordBytes;
    return log;
  }

  /** The longest record this log appends ({@link #MAX_RECORD_BYTES} unless opened with less). */
  public long maxRecordBytes() {
    return maxRecordBytes;
  }

  /** As above, forcing files through {@code forcer} (tests inject fsync failures with it). */
  static WriteAheadLog open(Path directory, Path quarantine, Replay replay, Forcer forcer)
      throws IOException {
    Files.createDirectories(directory);
    WriteAheadLog log = new WriteAheadLog(directory, quarantine, forcer);
    TreeMap<Long, Path> files = log.files();
    log.damage.addAll(WalOpening.replayAll(directory, quarantine, files, replay));
    log.generation = files.isEmpty() ? 1 : files.lastKey() + 1;
    log.channel = WalFile.create(directory, log.generation);
    return log;
  }

  /** What could not be replayed when the log opened (empty when every file read to its end). */
  public List<Damage> damage() {
    return List.copyOf(damage);
  }

  /**
   * Replays every record of every file on disk, the current one included, without changing the log;
   * the caller keeps appends out while it runs. Used to rebuild an index writer that failed.
   */
  public synchronized void replay(Replay replay) throws IOException {
    checkNotFailed();
    forcer.force(channel);
    for (Path file : files().values()) {
      WalFile.Unread unread = WalFile.read(file, replay);
      if (unread != null) {
        throw new IOException(
            "WAL file "
                + file
                + " is damaged in a running log: "
                + unread.problem()
                + " at byte "
                + unread.offset());
      }
    }
  }

  /**
   * A batch refused before anything was written: its record would be larger than a record the log
   * reads back ({@code WalFile.MAX_RECORD_BYTES}, 1 GiB). The request is too large, not the server
   * busy: HEC answers 413, and retrying the same batch cannot succeed.
   */
  public static final class RecordTooLarge extends IOException {
    RecordTooLarge(String message) {
      super(message);
    }
  }

  /** The generations on disk, by number. */
  private TreeMap<Long, Path> files() throws IOException {
    return WalFile.files(directory);
  }

  /**
   * Appends one batch. If the write fails (disk full), the file is cut back to where it was so the
   * log stays readable, and the error is rethrown.
   *
   * @return the position to pass to {@link #sync} to make this batch durable
   */
  public long append(long firstSeq, List<Event> events) throws IOException {
    return append(firstSeq, EncodedBatch.of(events));
  }

  /**
   * Appends one batch encoded beforehand ({@link EncodedBatch#of}, or {@link EncodedBatch#reusing}
   * into a pooled array); only the sequence number, the checksum and the write happen under the
   * log's lock. The log keeps no reference to the batch's arrays (nor to the request body its texts
   * may be written from): the caller may give it back once this returns (or throws). A batch larger
   * than a record the log reads back ({@link WalFile#MAX_RECORD_BYTES}) is refused, nothing written
   * ({@link RecordTooLarge}).
   *
   * @return the position to pass to {@link #sync} to make this batch durable
   */
  public synchronized long append(long firstSeq, EncodedBatch batch) throws IOException {
    checkNotFailed();
    long length = batch.length();
    requireFits(batch, maxRecordBytes);
    ByteBuffer[] pieces = batch.pieces();
    ByteBuffer[] record = WalFile.record(firstSeq, pieces, length);
    ByteBuffer head = record[0];
    long start = channel.position();
    try {
      while (record[2].hasRemaining() || record[1].hasRemaining() || head.hasRemaining()) {
        channel.write(record);
      }
    } catch (IOException e) {
      try {
        channel.truncate(start);
        channel.position(start);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    appended += head.limit() + length;
    return appended;
  }

  /**
   * Throws {@link RecordTooLarge} when {@code batch} would not fit one record of {@code
   * maxRecordBytes}: what {@link #append(long, EncodedBatch)} checks before it writes, for a caller
   * that stores several batches (one per index) and must know that none is refused before it
   * appends the first. The message names the limit.
   */
  public static void requireFits(EncodedBatch batch, long maxRecordBytes) throws RecordTooLarge {
    requireFits(batch.length(), maxRecordBytes);
  }

  /**
   * As {@link #requireFits(EncodedBatch, long)} for a batch of {@code length} bytes after its
   * {@code FirstSeq} ({@link EncodedBatch#lengthOf}), before it is built.
   */
  public static void requireFits(long length, long maxRecordBytes) throws RecordTooLarge {
    if (length + MAX_VLONG_BYTES > maxRecordBytes) {
      // past the format's limit a record would read back as cut short, and be cut off as a torn
      // tail: refuse it before it is written, so it is never acknowledged
      throw new RecordTooLarge(
          "a batch of "
              + length
              + " bytes is larger than a write-ahead log record may be ("
              + maxRecordBytes
              + " bytes): split the request into smaller ones");
    }
  }

  /** Returns once every byte appended up to {@code position} is on stable storage. */
  public void sync(long position) throws IOException {
    FileChannel target;
    long goal;
    synchronized (this) {
      checkNotFailed();
      while (durable < position && syncing) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for the WAL fsync", e);
        }
        checkNotFailed(); // the leader's fsync failed: no retry may "succeed" after it
      }
      if (durable >= position) {
        return;
      }
      syncing = true;
      target = channel;
      goal = appended;
    }
    boolean forced = false;
    try {
      forcer.force(target);
      forced = true;
    } catch (java.nio.channels.ClosedChannelException rolled) {
      // roll() forced this file before closing it and advanced durable past everything in it
      synchronized (this) {
        if (durable < position) {
          throw rolled;
        }
      }
    } catch (IOException e) {
      throw failStop(e, FSYNC_FAILED);
    } finally {
      synchronized (this) {
        syncing = false;
        if (forced) {
          durable = Math.max(durable, goal);
        }
        notifyAll();
      }
    }
  }

  /**
   * Starts a new file after forcing the current one.
   *
   * @return the new generation; every earlier generation can be deleted once the index has
   *     committed everything appended before this call
   */
  public synchronized long roll() throws IOException {
    checkNotFailed();
    try {
      forcer.force(channel);
    } catch (IOException e) {
      throw failStop(e, FSYNC_FAILED);
    }
    durable = appended;
    channel.close();
    generation++;
    try {
      channel = WalFile.create(directory, generation);
    } catch (IOException e) {
      // the old file is closed and no new one is open: nothing may be appended until a restart
      throw failStop(e, "starting log file " + generation + " failed");
    }
    return generation;
  }

  /** Deletes the files of generations before {@code generation}. */
  public synchronized void deleteBefore(long generation) throws IOException {
    List<Path> doomed = new ArrayList<>(files().headMap(generation).values());
    for (Path file : doomed) {
      Files.deleteIfExists(file);
    }
    if (!doomed.isEmpty()) {
      IOUtils.fsync(directory, true);
    }
  }

  /** Whether the log stopped accepting writes after a failed fsync (see {@link #failed}). */
  public synchronized boolean failed() {
    return failed != null;
  }

  private static final String FSYNC_FAILED = "an fsync failed";

  private synchronized IOException failStop(IOException cause, String what) {
    if (failed == null) {
      failed = cause;
      failedWhat = what;
      LOG.severe(
          "WAL in "
              + directory
              + ": "
              + what
              + " ("
              + cause
              + "); the log accepts no more writes until the server restarts and replays it"
              + " (a retried fsync can report success for data the kernel already dropped)");
    }
    return new IOException(
        "the write-ahead log stopped accepting writes after " + what + "; restart the server",
        cause);
  }

  private void checkNotFailed() throws IOException {
    if (failed != null) {
      throw new IOException(
          "the write-ahead log stopped accepting writes after "
              + failedWhat
              + " ("
              + failed.getMessage()
              + "); restart the server",
          failed);
    }
  }

  @Override
  public synchronized void close() throws IOException {
    try {
      if (failed == null) { // after a failed fsync a "successful" one proves nothing
        forcer.force(channel);
        durable = appended;
      }
    } finally {
      channel.close();
    }
  }
}
