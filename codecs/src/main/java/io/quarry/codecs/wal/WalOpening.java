package io.quarry.codecs.wal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.logging.Logger;
import org.apache.lucene.util.IOUtils;

/**
 * What opening the log does with its files ({@link WriteAheadLog#open}): replays them, oldest
 * first; with a file that could not be read to its end, the newest file's torn tail is cut off and
 * its bytes kept in the quarantine directory (it was never acknowledged); any other stop is damage
 * to acknowledged data, the file moved whole to the quarantine directory and reported.
 */
final class WalOpening {
  private static final Logger LOG = Logger.getLogger(WriteAheadLog.class.getName());

  private WalOpening() {}

  /**
   * Replays every record of {@code files} (the log's, by generation), oldest first, into {@code
   * replay}, dealing with each file that stops short ({@link #stoppedShort}).
   *
   * @return the damage found, in file order (empty when every file read to its end or only the
   *     newest one's torn tail was cut off)
   */
  static List<WriteAheadLog.Damage> replayAll(
      Path directory, Path quarantine, TreeMap<Long, Path> files, WriteAheadLog.Replay replay)
      throws IOException {
    List<WriteAheadLog.Damage> found = new ArrayList<>();
    long[] lastSeq = {-1};
    WriteAheadLog.Replay tracking =
        (firstSeq, events) -> {
          replay.batch(firstSeq, events);
          lastSeq[0] = Math.max(lastSeq[0], firstSeq + events.size() - 1);
        };
    for (Path file : files.values()) {
      WalFile.Unread unread = WalFile.read(file, tracking);
      if (unread != null) {
        boolean newest = file.equals(files.lastEntry().getValue());
        WriteAheadLog.Damage damage =
            stoppedShort(directory, quarantine, file, newest, unread, lastSeq[0]);
        if (damage != null) {
          found.add(damage);
        }
      }
    }
    return found;
  }

  /**
   * Deals with {@code file}, whose reading stopped at {@code unread}: null when it was a torn tail
   * (cut off), else the damage (the file moved to {@code quarantine}).
   *
   * @param lastSeq the last sequence number replayed before it (-1: none)
   */
  static WriteAheadLog.Damage stoppedShort(
      Path directory,
      Path quarantine,
      Path file,
      boolean newest,
      WalFile.Unread unread,
      long lastSeq)
      throws IOException {
    Files.createDirectories(quarantine);
    String name = file.getFileName().toString();
    if (newest && unread.tornTail()) {
      Path kept = quarantine.resolve(name + ".torn-at-" + unread.offset());
      try (FileChannel in =
          FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
        try (FileChannel out =
            FileChannel.open(kept, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
          in.transferTo(unread.offset(), unread.bytes(), out);
          out.force(true);
        }
        in.truncate(unread.offset());
        in.force(true);
      }
      LOG.warning(
          "WAL file "
              + file
              + " ends in "
              + unread.problem()
              + " at byte "
              + unread.offset()
              + "; cut off the last "
              + unread.bytes()
              + " bytes (a write torn by a crash: never acknowledged; kept in "
              + kept
              + ")");
      return null;
    }
    Path moved = quarantine.resolve(name);
    Files.move(file, moved, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(directory, true);
    WriteAheadLog.Damage damage =
        new WriteAheadLog.Damage(moved, unread.offset(), unread.bytes(), unread.problem(), lastSeq);
    LOG.severe(
        "WAL file "
            + file
            + " is damaged: "
            + unread.problem()
            + " at byte "
            + unread.offset()
            + ", "
            + unread.bytes()
            + " bytes not replayed; those events were acknowledged and are missing unless"
            + " recovered from the file, moved to "
            + moved
            + " (events up to sequence number "
            + lastSeq
            + " were replayed; later WAL files are still replayed)");
    return damage;
  }
}
