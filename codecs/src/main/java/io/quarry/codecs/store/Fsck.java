package io.quarry.codecs.store;

import io.quarry.codecs.wal.WalFileCheck;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.store.FSDirectory;

/**
 * Offline integrity check of a data directory (the server must not be running): every bucket of
 * every index goes through Lucene's {@link CheckIndex}, which verifies every file's checksum and
 * decodes every document, so each journal block's CRC is checked too; a block bucket's event blocks
 * are then decoded whole and checked against their documents ({@link BlockBucketCheck}); every
 * write-ahead log record is read and checked ({@link #checkWal}). With repair, damaged buckets are
 * moved to {@code quarantine/} like the server does when it meets one (WAL files are left to the
 * server, which replays what it can first).
 */
public final class Fsck {
  private Fsck() {}

  /** The verdict on one bucket. */
  public record BucketCheck(String index, String bucket, boolean clean, String problem) {}

  /** The verdict on one write-ahead log file of an index. */
  public record WalCheck(String index, WalFileCheck file) {}

  /**
   * Reads every write-ahead log file of every index and checks every record. A torn tail in an
   * index's newest file is reported but is no damage (the server cuts it: never acknowledged);
   * anything else is acknowledged data that cannot be read. Repair leaves WAL files alone: the
   * server, when it opens the index, replays the records before the damage and then moves the file
   * to {@code quarantine/}; moving it now would lose those records.
   */
  public static List<WalCheck> checkWal(Path dataDirectory) throws IOException {
    List<WalCheck> checks = new ArrayList<>();
    Path indexes = dataDirectory.resolve("indexes");
    if (!Files.isDirectory(indexes)) {
      return checks;
    }
    for (Path index : sorted(indexes)) {
      for (WalFileCheck file : WalFileCheck.checkAll(index.resolve("wal"))) {
        checks.add(new WalCheck(index.getFileName().toString(), file));
      }
    }
    return checks;
  }

  public static List<BucketCheck> check(Path dataDirectory, boolean repair) throws IOException {
    List<BucketCheck> checks = new ArrayList<>();
    Path indexes = dataDirectory.resolve("indexes");
    if (!Files.isDirectory(indexes)) {
      throw new IOException(
          "no indexes under " + dataDirectory + " (is it a Quarry data directory?)");
    }
    for (Path index : sorted(indexes)) {
      Path buckets = index.resolve("buckets");
      if (!Files.isDirectory(buckets)) {
        continue;
      }
      for (Path bucket : sorted(buckets)) {
        BucketCheck check = checkBucket(index.getFileName().toString(), bucket);
        checks.add(check);
        if (!check.clean() && repair) {
          Path target = index.resolve("quarantine").resolve(bucket.getFileName());
          Files.createDirectories(target.getParent());
          Files.move(bucket, target, StandardCopyOption.ATOMIC_MOVE);
        }
      }
    }
    return checks;
  }

  private static BucketCheck checkBucket(String index, Path bucket) {
    String name = bucket.getFileName().toString();
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    try (FSDirectory directory = FSDirectory.open(bucket);
        CheckIndex checker = new CheckIndex(directory)) {
      checker.setInfoStream(new PrintStream(log, true, StandardCharsets.UTF_8));
      CheckIndex.Status status = checker.checkIndex();
      if (status.missingSegments && !Files.exists(bucket.resolve(Bucket.MANIFEST))) {
        return new BucketCheck(index, name, true, "empty hot bucket (nothing committed yet)");
      }
      if (status.clean) {
        String blocks =
            BucketFormat.recorded(bucket) == BucketFormat.BLOCKS
                ? BlockBucketCheck.firstProblem(bucket)
                : null;
        return new BucketCheck(index, name, blocks == null, blocks);
      }
      return new BucketCheck(
          index, name, false, firstProblem(log.toString(StandardCharsets.UTF_8)));
    } catch (IOException | RuntimeException e) {
      return new BucketCheck(index, name, false, e.toString());
    }
  }

  private static String firstProblem(String log) {
    for (String line : log.split("\n")) {
      if (line.contains("ERROR") || line.contains("FAILED") || line.contains("Exception")) {
        return line.strip();
      }
    }
    return "CheckIndex reported the bucket as not clean";
  }

  private static List<Path> sorted(Path directory) throws IOException {
    List<Path> entries = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(directory, Files::isDirectory)) {
      stream.forEach(entries::add);
    }
    entries.sort(null);
    return entries;
  }
}
