package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.util.IOUtils;

/**
 * How a bucket lays out its events (config {@code storage.indexes.<name>.format}): one Lucene
 * document per event ({@link #EVENTS}, the default) or one per block of up to {@link
 * BlockDocuments#EVENTS_PER_BLOCK} events ({@link #BLOCKS}, issue 23). A bucket's format is fixed
 * when it is created and recorded in its directory ({@value #MARKER}; a bucket without one holds
 * events), so a bucket is read by its own layout whatever the index's configuration says now.
 */
public enum BucketFormat {
  EVENTS,
  BLOCKS;

  /** The file in a bucket's directory that names its format (absent: {@link #EVENTS}). */
  static final String MARKER = "bucket.format";

  /** The name in configuration and on disk: {@code events} or {@code blocks}. */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The format of a configuration name.
   *
   * @throws IllegalArgumentException naming the accepted values
   */
  public static BucketFormat fromName(String name) {
    for (BucketFormat format : values()) {
      if (format.configName().equals(name)) {
        return format;
      }
    }
    throw new IllegalArgumentException("format must be events or blocks, not '" + name + "'");
  }

  /**
   * The recorded format of the bucket in {@code directory}, or null when none is recorded.
   *
   * @throws CorruptIndexException when the record names no format
   */
  static BucketFormat recorded(Path directory) throws IOException {
    Path marker = directory.resolve(MARKER);
    if (!Files.exists(marker)) {
      return null;
    }
    String name = Files.readString(marker, StandardCharsets.UTF_8).strip();
    try {
      return fromName(name);
    } catch (IllegalArgumentException e) {
      throw new CorruptIndexException("unknown bucket format '" + name + "'", marker.toString());
    }
  }

  /** Records this format in a new bucket's {@code directory}, atomically and durably. */
  void record(Path directory) throws IOException {
    Path temporary = directory.resolve(MARKER + ".tmp");
    Files.writeString(temporary, configName() + "\n", StandardCharsets.UTF_8);
    IOUtils.fsync(temporary, false);
    Files.move(temporary, directory.resolve(MARKER), StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(directory, true);
  }
}
