package io.quarry.codecs.wal;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.TreeMap;
import java.util.logging.Logger;
import java.util.zip.CRC32C;
import org.apache.lucene.util.IOUtils;

/**
 * One log file's format and its reading ({@link WriteAheadLog}'s javadoc has the grammar): the
 * header a new file starts with (and the new file made with it), the files of a log directory by
 * generation, and reading a file's records back to the first that does not read, saying where and
 * why it stopped. What opening the log does about a file that stopped short (cut a torn tail,
 * quarantine damage) is {@link WalOpening}'s; refusing it in a running log is {@link
 * WriteAheadLog}'s.
 */
final class WalFile {
  private static final Logger LOG = Logger.getLogger(WalFile.class.getName());
  private static final byte[] MAGIC =
      "QUARRYWL".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** The version new files are written in: 2, records whose texts are one body (session 35). */
  static final int VERSION = 2;

  /** The oldest version still read: 1, records of events in full ({@link WalRecordV1}). */
  static final int VERSION_START = 1;

  private static final int HEADER_BYTES = MAGIC.length + Integer.BYTES + Long.BYTES;

  /** A record's {@code PayloadLength (int), Crc32c (int)}. */
  static final int RECORD_HEADER_BYTES = 2 * Integer.BYTES;

  /** The most bytes a record's {@code FirstSeq} takes (a vlong). */
  static final int MAX_VLONG_BYTES = 10;

  /**
   * A record of the batch whose encoded bytes after its {@code FirstSeq} are {@code pieces} ({@code
   * length} bytes in all, {@link EncodedBatch#pieces}): its header ({@code PayloadLength}, the
   * {@code Crc32c} of the whole payload) with {@code firstSeq} as a vlong, then the pieces, as the
   * buffers to write in order. The pieces are read for the checksum, not consumed.
   */
  static ByteBuffer[] record(long firstSeq, ByteBuffer[] pieces, long length) {
    ByteBuffer head = ByteBuffer.allocate(RECORD_HEADER_BYTES + MAX_VLONG_BYTES);
    head.position(RECORD_HEADER_BYTES);
    for (long v = firstSeq; ; v >>>= 7) { // FirstSeq as a vlong
      if ((v & ~0x7FL) == 0) {
        head.put((byte) v);
        break;
      }
      head.put((byte) ((v & 0x7F) | 0x80));
    }
    int sequenceBytes = head.position() - RECORD_HEADER_BYTES;
    CRC32C crc = new CRC32C();
    crc.update(head.array(), RECORD_HEADER_BYTES, sequenceBytes);
    for (ByteBuffer piece : pieces) {
      crc.update(piece.duplicate());
    }
    head.putInt(0, sequenceBytes + (int) length).putInt(Integer.BYTES, (int) crc.getValue()).flip();
    return new ByteBuffer[] {head, pieces[0], pieces[1]};
  }

  /** Larger records are corrupt by definition (the HTTP layer caps requests far below). */
  static final int MAX_RECORD_BYTES = 1 << 30;

  private WalFile() {}

  /** The header of generation {@code number}'s file, ready to write. */
  static ByteBuffer header(long number) {
    ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
    return header.put(MAGIC).putInt(VERSION).putLong(number).flip();
  }

  /**
   * Creates generation {@code number}'s file in {@code directory} ({@code wal-<number>.log}, which
   * must not exist), its header written and forced with the directory's entry: open for appends. On
   * failure the file is closed and deleted.
   */
  static FileChannel create(Path directory, long number) throws IOException {
    Path file = directory.resolve("wal-" + number + ".log");
    FileChannel created =
        FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      ByteBuffer header = header(number);
      while (header.hasRemaining()) {
        created.write(header);
      }
      created.force(true);
      IOUtils.fsync(directory, true);
      return created;
    } catch (IOException | RuntimeException e) {
      // the file is ours (CREATE_NEW) and holds no record: leave no half-written header behind
      IOUtils.closeWhileHandlingException(created);
      IOUtils.deleteFilesIgnoringExceptions(file);
      throw e;
    }
  }

  /**
   * Where reading a file stopped.
   *
   * @param tornTail whether it looks like a write torn by a crash: a record cut short by the end of
   *     the file, a checksum failure of a record ending exactly at the end, or only zeros from here
   */
  record Unread(long offset, long bytes, String problem, boolean tornTail) {}

  /** The WAL files of {@code directory}, by generation. */
  static TreeMap<Long, Path> files(Path directory) throws IOException {
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

  /**
   * A file this build cannot read at all: not a Quarry WAL file, or of a version it does not read
   * (the message names the file and the versions it reads).
   */
  static final class Unsupported extends IOException {
    Unsupported(String message) {
      super(message);
    }
  }

  /**
   * Replays one file; returns null when it read to its end, else where and why it stopped.
   *
   * @throws Unsupported when the file is not a Quarry WAL file or of a version not read
   */
  static Unread read(Path file, WriteAheadLog.Replay replay) throws IOException {
    try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = in.size();
      if (size < HEADER_BYTES) {
        return new Unread(0, size, "no complete header", true);
      }
      ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
      readFully(in, header, 0);
      byte[] magic = new byte[MAGIC.length];
      header.flip().get(magic);
      int version = header.getInt();
      if (!java.util.Arrays.equals(magic, MAGIC)) {
        throw new Unsupported("not a Quarry WAL file: " + file);
      }
      if (version < VERSION_START || version > VERSION) {
        throw new Unsupported(
            "Quarry WAL file "
                + file
                + " is version "
                + version
                + "; this build reads versions "
                + VERSION_START
                + ".."
                + VERSION
                + " (written by a newer Quarry? see README, Upgrading)");
      }
      long position = HEADER_BYTES;
      CRC32C crc = new CRC32C();
      ByteBuffer recordHeader = ByteBuffer.allocate(RECORD_HEADER_BYTES);
      while (position < size) {
        String problem = null;
        boolean torn = false;
        if (size - position < RECORD_HEADER_BYTES) {
          problem = "a record header cut short";
          torn = true;
        } else {
          recordHeader.clear();
          readFully(in, recordHeader, position);
          recordHeader.flip();
          int length = recordHeader.getInt();
          int checksum = recordHeader.getInt();
          if (length == 0) {
            problem = "an empty record"; // never written: WalCodec's payload is never empty
          } else if (length < 0
              || length > MAX_RECORD_BYTES
              || size - position - RECORD_HEADER_BYTES < length) {
            problem = "a record of " + length + " bytes cut short";
            torn = true;
          } else {
            ByteBuffer payload = ByteBuffer.allocate(length);
            readFully(in, payload, position + RECORD_HEADER_BYTES);
            crc.reset();
            crc.update(payload.array(), 0, length);
            if ((int) crc.getValue() != checksum) {
              problem = "a record failing its checksum";
              torn = position + RECORD_HEADER_BYTES + length == size;
            } else {
              WalCodec.Batch batch;
              try {
                batch = WalCodec.decode(payload.array(), version);
              } catch (RuntimeException e) {
                batch = null;
                problem = "a record that passes its checksum but does not decode (" + e + ")";
              }
              if (batch != null) {
                replay.batch(batch.firstSeq(), batch.events());
                position += RECORD_HEADER_BYTES + length;
              }
            }
          }
        }
        if (problem != null) {
          return new Unread(
              position, size - position, problem, torn || zerosFrom(in, position, size));
        }
      }
      return null;
    }
  }

  /** Whether every byte from {@code position} to the end is zero (a file extended by a crash). */
  private static boolean zerosFrom(FileChannel in, long position, long size) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
    for (long at = position; at < size; ) {
      buffer.clear().limit((int) Math.min(buffer.capacity(), size - at));
      readFully(in, buffer, at);
      for (int i = 0; i < buffer.limit(); i++) {
        if (buffer.get(i) != 0) {
          return false;
        }
      }
      at += buffer.limit();
    }
    return true;
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
}
