package io.quarry.codecs.metricstore;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.TreeMap;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.apache.lucene.util.IOUtils;

/**
 * A metric index's write-ahead log: numbered files {@code mwal-<generation>.log} of point batches.
 *
 * <p>File: {@code Magic ("QUARRYML"), Version (int), Generation (long), Record*}; a record is
 * {@code PayloadLength (int), Crc32c (int, of the payload), Payload} (big-endian), the payload as
 * {@link MetricLogCodec} writes it. On open every file is read back, oldest first. A record that is
 * cut short, or fails its checksum, ends the file's replay. In the newest file, a record cut short
 * by the end of the file, failing its checksum at the very end, or followed only by zeros is a
 * write torn by a crash (never acknowledged: the fsync had not returned): the rest of the file is
 * cut off, its bytes kept in the quarantine directory (a WARNING); anything else there is cut off
 * the same way but reported as damage (SEVERE). In an older file (forced before the log rolled past
 * it) it is damage to acknowledged points: the whole file is moved to quarantine after its good
 * records are replayed, with a SEVERE log line — later files are still replayed.
 *
 * <p>Appends are serialized by the caller (the index's lock) and by this object; {@link #sync} is
 * called by many threads at once and shares fsyncs: one forces the file, every caller whose bytes
 * that covered returns. A failed fsync fails the log for good (every later call throws) until the
 * server restarts and replays what really is on disk.
 */
public final class MetricLog implements Closeable {
  private static final Logger LOG = Logger.getLogger(MetricLog.class.getName());
  static final byte[] MAGIC = "QUARRYML".getBytes(StandardCharsets.US_ASCII);
  static final int VERSION = 2; // 1: series in every record (still read)
  static final int HEADER_BYTES = MAGIC.length + Integer.BYTES + Long.BYTES;
  static final int RECORD_HEADER_BYTES = 2 * Integer.BYTES;
  static final int MAX_RECORD_BYTES = 1 << 30;

  /** Receives the batches found on open, oldest first, with the generation of their file. */
  @FunctionalInterface
  public interface Replay {
    void batch(long generation, MetricBatch points) throws IOException;
  }

  /** The series of the file being appended to, by their number in it (see MetricLogCodec). */
  private java.util.Map<SeriesKey, Integer> fileNumbers = new java.util.HashMap<>();

  private Object numbersToken = new Object(); // keys' memos of fileNumbers (SeriesKey.Memo)

  private final Path directory;
  private final Path quarantine;
  private FileChannel channel;
  private long generation;
  private long appended;
  private long durable;
  private boolean syncing;
  private IOException failure;

  private MetricLog(Path directory, Path quarantine) {
    this.directory = directory;
    this.quarantine = quarantine;
  }

  /**
   * Opens the log in {@code directory}: files of a generation up to {@code coveredGeneration} are
   * already in warm buckets and are deleted unread; every later file is replayed; then a new file
   * is started.
   */
  public static MetricLog open(
      Path directory, Path quarantine, long coveredGeneration, Replay replay) throws IOException {
    Files.createDirectories(directory);
    MetricLog log = new MetricLog(directory, quarantine);
    TreeMap<Long, Path> files = log.files();
    long last = coveredGeneration;
    for (var entry : files.entrySet()) {
      last = Math.max(last, entry.getKey());
      if (entry.getKey() <= coveredGeneration) {
        Files.delete(entry.getValue());
        continue;
      }
      log.replayFile(entry.getKey(), entry.getValue(), entry.getKey() == files.lastKey(), replay);
    }
    log.startFile(last + 1);
    return log;
  }

  private TreeMap<Long, Path> files() throws IOException {
    TreeMap<Long, Path> files = new TreeMap<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "mwal-*.log")) {
      for (Path file : stream) {
        String name = file.getFileName().toString();
        try {
          files.put(Long.parseLong(name.substring(5, name.length() - 4)), file);
        } catch (NumberFormatException e) {
          LOG.warning("ignoring " + file + ": not a metric log file name");
        }
      }
    }
    return files;
  }

  private void replayFile(long fileGeneration, Path file, boolean newest, Replay replay)
      throws IOException {
    byte[] bytes = Files.readAllBytes(file);
    MetricLogReader.Scan scan = MetricLogReader.read(bytes, fileGeneration, replay);
    String problem = scan.problem();
    int position = scan.position();
    boolean torn = scan.torn();
    if (problem == null) {
      return;
    }
    Files.createDirectories(quarantine);
    if (newest) {
      // the file goes on being the newest until the log starts its next one: cut it where it stops
      // reading, keeping the rest
      Path kept =
          quarantine.resolve(file.getFileName() + "." + position + (torn ? ".torn" : ".damaged"));
      Files.write(kept, java.util.Arrays.copyOfRange(bytes, position, bytes.length));
      try (FileChannel cut = FileChannel.open(file, StandardOpenOption.WRITE)) {
        cut.truncate(position);
        cut.force(true);
      }
      if (torn) {
        LOG.warning(
            "metric log "
                + file
                + ": "
                + problem
                + " at byte "
                + position
                + " (a write torn by a crash, never acknowledged); cut off, kept in "
                + kept);
      } else {
        LOG.severe(
            "metric log "
                + file
                + " is damaged: "
                + problem
                + " at byte "
                + position
                + " with "
                + (bytes.length - position)
                + " bytes after it; acknowledged points after it are lost; they are kept in "
                + kept);
      }
    } else {
      Path moved = quarantine.resolve(file.getFileName().toString());
      Files.move(file, moved, StandardCopyOption.REPLACE_EXISTING);
      LOG.severe(
          "metric log "
              + file
              + " is damaged: "
              + problem
              + " at byte "
              + position
              + " of "
              + bytes.length
              + "; acknowledged points after it are lost; the file is in "
              + moved);
    }
  }

  private void startFile(long newGeneration) throws IOException {
    Path file = directory.resolve("mwal-" + newGeneration + ".log");
    FileChannel created =
        FileChannel.open(
            file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
    header.put(MAGIC).putInt(VERSION).putLong(newGeneration).flip();
    while (header.hasRemaining()) {
      created.write(header);
    }
    created.force(true);
    IOUtils.fsync(directory, true);
    this.channel = created;
    this.generation = newGeneration;
    // a new file starts its own dictionary; the keys forget their numbers in the old one
    // (the keys' memos of the old one go stale: they name its token)
    this.fileNumbers = new java.util.HashMap<>();
    this.numbersToken = new Object();
    // positions grow across files: the generation above the byte offset
    this.appended = (newGeneration << 40) | HEADER_BYTES;
    this.durable = Math.max(this.durable, this.appended);
  }

  /** The generation of the file being appended to. */
  public synchronized long generation() {
    return generation;
  }

  /**
   * Appends a batch; if the write fails the file is cut back to where it was and the error
   * rethrown.
   *
   * @return the position to pass to {@link #sync}
   */
  public long append(List<MetricPoint> points) throws IOException {
    return append(record(MetricBatch.of(points)));
  }

  /**
   * A batch as one record, ready for {@link #append(ByteBuffer)}: encoding and checksumming are the
   * costly part, done by the caller outside any lock.
   */
  public static Encoded record(MetricBatch points) {
    return new Encoded(points, MetricLogCodec.encodePoints(points));
  }

  /** A batch with its points encoded, ready for {@link #append(Encoded)}. */
  public record Encoded(MetricBatch batch, ByteBuffer points) {}

  /**
   * Appends a record made by {@link #record}.
   *
   * @return the position to pass to {@link #sync}
   */
  public synchronized long append(Encoded record) throws IOException {
    checkNotFailed();
    long start = channel.position();
    List<SeriesKey> added = new java.util.ArrayList<>();
    try {
      ByteBuffer refs = MetricLogCodec.seriesRefs(record.batch(), fileNumbers, numbersToken, added);
      ByteBuffer points = record.points().duplicate();
      CRC32C crc = new CRC32C();
      crc.update(refs.duplicate());
      crc.update(points.duplicate());
      ByteBuffer header = ByteBuffer.allocate(RECORD_HEADER_BYTES);
      header.putInt(refs.remaining() + points.remaining()).putInt((int) crc.getValue()).flip();
      ByteBuffer[] buffers = {header, refs, points};
      while (points.hasRemaining()) {
        channel.write(buffers);
      }
    } catch (IOException e) {
      fileNumbers.keySet().removeAll(added); // the file has not got them
      numbersToken = new Object(); // their numbers will be given again: every memo goes stale
      try {
        channel.truncate(start);
        channel.position(start);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
    appended = (generation << 40) | channel.position();
    return appended;
  }

  /** Returns once everything appended up to {@code position} is on stable storage. */
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
          throw new IOException("interrupted while waiting for the metric log fsync", e);
        }
        checkNotFailed();
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
      target.force(false);
      forced = true;
    } catch (java.nio.channels.ClosedChannelException rolled) {
      synchronized (this) {
        if (durable < position) {
          throw rolled;
        }
      }
    } catch (IOException e) {
      synchronized (this) {
        failure = e;
      }
      throw e;
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
   * Forces the current file and starts the next one.
   *
   * @return the generation of the file just closed: once its points are in a published warm bucket,
   *     it and every earlier file can be deleted ({@link #deleteThrough})
   */
  public synchronized long roll() throws IOException {
    checkNotFailed();
    try {
      channel.force(false);
    } catch (IOException e) {
      failure = e;
      throw e;
    }
    durable = Math.max(durable, appended);
    channel.close();
    long closed = generation;
    startFile(closed + 1);
    return closed;
  }

  /** Deletes every file of a generation up to {@code covered} (in a published warm bucket). */
  public synchronized void deleteThrough(long covered) throws IOException {
    for (var entry : files().entrySet()) {
      if (entry.getKey() <= covered && entry.getKey() != generation) {
        Files.deleteIfExists(entry.getValue());
      }
    }
  }

  private void checkNotFailed() throws IOException {
    if (failure != null) {
      throw new IOException(
          "the metric log failed an fsync earlier and accepts nothing until a restart", failure);
    }
    if (channel == null || !channel.isOpen()) {
      throw new IOException("the metric log is closed");
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (channel != null && channel.isOpen()) {
      try {
        if (failure == null) {
          channel.force(false);
        }
      } finally {
        channel.close();
      }
    }
  }
}
