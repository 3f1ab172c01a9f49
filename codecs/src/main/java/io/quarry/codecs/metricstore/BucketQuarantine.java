package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;

/**
 * Where a metric index's damaged buckets go: {@code <index>/quarantine/metric-bucket-<id>-<millis>}
 * (out of the index, kept for a person to look at), each move said in the log (SEVERE) and kept as
 * a message for {@link MetricIndexStore#damage()}. Used by the index (a bucket failing a checksum
 * on open or in a search) and by {@link MetricFsck} ({@code quarry fsck --repair}).
 */
final class BucketQuarantine {
  private static final Logger LOG = Logger.getLogger(BucketQuarantine.class.getName());

  private final String index;
  private final Path directory;
  private final CopyOnWriteArrayList<String> messages = new CopyOnWriteArrayList<>();

  /**
   * @param index the index's name, for messages
   * @param directory the index's {@code quarantine/} directory
   */
  BucketQuarantine(String index, Path directory) {
    this.index = index;
    this.directory = directory;
  }

  /**
   * Moves a damaged bucket's directory aside (its points are no longer searchable; the rest of the
   * index is) and says so.
   *
   * @return the message
   */
  String move(Path bucket, Exception cause) throws IOException {
    Files.createDirectories(directory);
    Path moved =
        directory.resolve(
            "metric-bucket-" + bucket.getFileName() + "-" + System.currentTimeMillis());
    Files.move(bucket, moved);
    String message =
        "metric index '"
            + index
            + "': bucket "
            + bucket.getFileName()
            + " is damaged ("
            + cause.getMessage()
            + ") and was moved to "
            + moved
            + "; its points are not searched";
    LOG.severe(message);
    messages.add(message);
    return message;
  }

  /** The moves made since the index opened, as messages. */
  List<String> messages() {
    return List.copyOf(messages);
  }
}
