package io.quarry.codecs.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;
import org.apache.lucene.util.IOUtils;

/**
 * A warm bucket's {@code bucket.properties}: its time bounds, event count, last sequence number and
 * creation time, written atomically (a temporary file fsync'd, then moved) when it rolls, so a
 * search skips the bucket without opening it; a bucket directory without it was hot.
 */
record BucketManifest(long minTime, long maxTime, long events, long maxSequence, long created) {
  static final String FILE = "bucket.properties";

  /** The manifest of the bucket in {@code path}, or null when it has none (it was hot). */
  static BucketManifest read(Path path) throws IOException {
    Path manifest = path.resolve(FILE);
    if (!Files.exists(manifest)) {
      return null;
    }
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(manifest)) {
      properties.load(in);
    }
    return new BucketManifest(
        Long.parseLong(properties.getProperty("minTime")),
        Long.parseLong(properties.getProperty("maxTime")),
        Long.parseLong(properties.getProperty("events")),
        Long.parseLong(properties.getProperty("maxSequence")),
        Long.parseLong(properties.getProperty("created", "0")));
  }

  /** Writes this manifest into the bucket directory {@code path}, atomically and durably. */
  void write(Path path) throws IOException {
    Properties properties = new Properties();
    properties.setProperty("state", "warm");
    properties.setProperty("minTime", Long.toString(minTime));
    properties.setProperty("maxTime", Long.toString(maxTime));
    properties.setProperty("events", Long.toString(events));
    properties.setProperty("maxSequence", Long.toString(maxSequence));
    properties.setProperty("created", Long.toString(created));
    Path temporary = path.resolve(FILE + ".tmp");
    try (OutputStream out = Files.newOutputStream(temporary)) {
      properties.store(out, "Quarry bucket");
    }
    IOUtils.fsync(temporary, false);
    Files.move(temporary, path.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(path, true);
  }
}
