package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * An index's quarantine: a damaged bucket's directory moved out of the way ({@code
 * quarantine/<id>}), so every other bucket stays searchable; the data is kept for inspection and
 * repair. Counts the buckets moved since the index opened.
 */
final class DamagedBuckets {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private final String index;
  private final Path quarantine;
  private final AtomicLong moved = new AtomicLong();

  /** The quarantine of {@code index}, beside its {@code bucketsPath}. */
  DamagedBuckets(String index, Path bucketsPath) {
    this.index = index;
    this.quarantine = bucketsPath.resolveSibling("quarantine");
  }

  /** Moves the bucket directory {@code bucket} to the quarantine. */
  void move(Path bucket, Exception cause) throws IOException {
    Path target = quarantine.resolve(bucket.getFileName());
    Files.createDirectories(target.getParent());
    Files.move(bucket, target, StandardCopyOption.ATOMIC_MOVE);
    moved.incrementAndGet();
    LOG.log(
        Level.SEVERE,
        "index "
            + index
            + ": bucket "
            + bucket.getFileName()
            + " is damaged and was moved to "
            + target
            + "; the rest of the index stays searchable",
        cause);
  }

  /** Moves a bucket a search found damaged, when it can; logs when it cannot. */
  void moveQuietly(Bucket bucket, Exception cause) {
    try {
      move(bucket.path(), cause);
    } catch (IOException e) {
      LOG.log(Level.SEVERE, "index " + index + ": cannot quarantine " + bucket.path(), e);
    }
  }

  /** The warning a search gets for a bucket found damaged. */
  String warning(Bucket bucket, Exception cause) {
    return "index '"
        + index
        + "': bucket "
        + bucket.id()
        + " is damaged ("
        + cause.getMessage()
        + ") and was quarantined; results miss its events";
  }

  /** The buckets moved since the index opened. */
  long count() {
    return moved.get();
  }
}
