package io.quarry.codecs.wal;

import io.quarry.codecs.store.Event;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.apache.lucene.util.IOUtils;

/**
 * An append-only log of event batches in numbered files {@code wal-<generation>.log}.
 *
 * <p>File: {@code Magic ("QUARRYWL"), Version (int), Generation (long), Record*}; a record is
 * {@code PayloadLength (int), Crc32c (int), Payload} (big-endian), the payload as {@link WalCodec}
 * writes it. On open every file is read back; a record that is cut short or fails its checksum ends
 * the log: it and everything after it is dropped (a torn tail from a crash mid-write), and the drop
 * is logged.
 *
 * <p>Appends come from one thread at a time (the index's writer lock); {@link #sync} may be called
 * by many threads at once and shares fsyncs between them: one caller forces the file, every caller
 * whose bytes that covered returns.
 */
public final class WriteAheadLog implements Closeable {
  private static final Logger LOG = Logger.getLogger(WriteAheadLog.class.getName());
  private static final byte[] MAGIC =
      "QUARRYWL".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final int VERSION = 1;
  private static final int HEADER_BYTES = MAGIC.length + Integer.BYTES + Long.BYTES;
  private static final int RECORD_HEADER_BYTES = 2 * Integer.BYTES;

  /** Larger records are corrupt by definition (the HTTP layer caps requests far below). */
  static final int MAX_RECORD_BYTES = 1 << 30;

  /** Receives the batches found in the log on open, oldest first. */
  @FunctionalInterface
  public interface Replay {
    void batch(long firstSeq, List<Event> events) throws IOException;
  }

  private final Path directory;
  private FileChannel channel; // guarded by this
  private long generation; // guarded by this
  private long appended; // logical bytes appended over all generations; guarded by this
  private long durable; // guarded by this
  private boolean syncing; // guarded by this

  private WriteAheadLog(Path directory) {
    this.directory = directory;
  }

  /**
   * Opens the log in {@code directory}, replaying every record found, then starts a new file.
   *
   * @return the log, ready for appends
   */
  public static WriteAheadLog open(Path directory, Replay replay) throws IOException {
    Files.createDirectories(directory);
    WriteAheadLog log = new WriteAheadLog(directory);
    TreeMap<Long, Path> files = log.files();
    boolean torn = false;
    for (Path file : files.values()) {
      if (torn) {
        LOG.warning("dropping WAL file " + file + ": it follows a torn record");
        Files.delete(file);
        continue;
      }
      torn = !replayFile(file, replay);
    }
    log.generation = files.isEmpty() ? 1 : files.lastKey() + 1;
    log.channel = log.create(log.generation);
    return log;
  }

  /**
   * Replays every record of every file on disk, the current one included, without changing the log;
   * the caller keeps appends out while it runs. Used to rebuild an index writer that failed.
   */
  public synchronized void replay(Replay replay) throws IOException {
    channel.force(false);
    for (Path file : files().values()) {
      if (!replayFile(file, replay)) {
        throw new IOException("WAL file " + file + " is damaged in a running log");
      }
    }
  }

  /** The generations on disk, by number. */
  private TreeMap<Long, Path> files() throws IOException {
    TreeMap<Long, Path> files = new TreeMap<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, "wal-*.log")) {
      for (Path file : stream) {
        String name = file.getFileName().toString();
        try {
          files.put(Long.parseLong(name.substring(4, name.length() - 4)), file);
        } catch (NumberFormatException e) {
          LOG.warning("ignoring unexpected file in the WAL directory: " + file);
        }
      }
    }
    return files;
  }

  /** Replays one file; returns false when it ended in a torn record (which is cut off). */
  private static boolean replayFile(Path file, Replay replay) throws IOException {
    try (FileChannel in =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      long size = in.size();
      if (size < HEADER_BYTES) {
        LOG.warning(
            "WAL file " + file + " has no complete header (" + size + " bytes); dropping it");
        return false;
      }
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      readFully(in, header, 0);
      byte[] magic = new byte[MAGIC.length];
      header.flip().get(magic);
      if (!java.util.Arrays.equals(magic, MAGIC) || header.getInt() != VERSION) {
        throw new IOException("not a Quarry WAL file (or an unknown version): " + file);
      }
      long position = HEADER_BYTES;
      CRC32C crc = new CRC32C();
      ByteBuffer recordHeader = ByteBuffer.allocate(RECORD_HEADER_BYTES);
      while (position < size) {
        String problem = null;
        if (size - position < RECORD_HEADER_BYTES) {
          problem = "a record header cut short";
        } else {
          recordHeader.clear();
          readFully(in, recordHeader, position);
          recordHeader.flip();
          int length = recordHeader.getInt();
          int checksum = recordHeader.getInt();
          if (length < 0
              || length > MAX_RECORD_BYTES
              || size - position - RECORD_HEADER_BYTES < length) {
            problem = "a record of " + length + " bytes cut short";
          } else {
            ByteBuffer payload = ByteBuffer.allocate(length);
            readFully(in, payload, position + RECORD_HEADER_BYTES);
            crc.reset();
            crc.update(payload.array(), 0, length);
            if ((int) crc.getValue() != checksum) {
              problem = "a record failing its checksum";
            } else {
              WalCodec.Batch batch = WalCodec.decode(payload.array());
              replay.batch(batch.firstSeq(), batch.events());
              position += RECORD_HEADER_BYTES + length;
            }
          }
        }
        if (problem != null) {
          LOG.warning(
              "WAL file "
                  + file
                  + " ends in "
                  + problem
                  + " at byte "
                  + position
                  + "; dropping the last "
                  + (size - position)
                  + " bytes (a write torn by a crash; those events were never acknowledged)");
          in.truncate(position);
          in.force(true);
          return false;
        }
      }
      return true;
    }
  }

  private static void readFully(FileChannel in, ByteBuffer buffer, long position)
      throws IOException {
    while (buffer.hasRemaining()) {
      int read = in.read(buffer, position + buffer.position());
      if (read < 0) {
        throw new EOFException();
      }
    }
  }

  private FileChannel create(long number) throws IOException {
    Path file = directory.resolve("wal-" + number + ".log");
    FileChannel created =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
    header.put(MAGIC).putInt(VERSION).putLong(number).flip();
    while (header.hasRemaining()) {
      created.write(header);
    }
    created.force(true);
    IOUtils.fsync(directory, true);
    return created;
  }

  /**
   * Appends one batch. If the write fails (disk full), the file is cut back to where it was so the
   * log stays readable, and the error is rethrown.
   *
   * @return the position to pass to {@link #sync} to make this batch durable
   */
  public synchronized long append(long firstSeq, List<Event> events) throws IOException {
    byte[] payload = WalCodec.encode(firstSeq, events);
    CRC32C crc = new CRC32C();
    crc.update(payload);
    ByteBuffer record = ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length);
    record.putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
    long start = channel.position();
    try {
      while (record.hasRemaining()) {
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
    appended += record.limit();
    return appended;
  }

  /** Returns once every byte appended up to {@code position} is on stable storage. */
  public void sync(long position) throws IOException {
    FileChannel target;
    long goal;
    synchronized (this) {
      while (durable < position && syncing) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted while waiting for the WAL fsync", e);
        }
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
      // roll() forced this file before closing it and advanced durable past everything in it
      synchronized (this) {
        if (durable < position) {
          throw rolled;
        }
      }
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
    channel.force(false);
    durable = appended;
    channel.close();
    generation++;
    channel = create(generation);
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

  @Override
  public synchronized void close() throws IOException {
    try {
      channel.force(false);
      durable = appended;
    } finally {
      channel.close();
    }
  }
}
