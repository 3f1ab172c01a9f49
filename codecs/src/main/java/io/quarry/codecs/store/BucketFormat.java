package io.quarry.codecs.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.IOUtils;

/**
 * How a bucket lays out its events (config {@code storage.indexes.<name>.format}): one Lucene
 * document per event ({@link #EVENTS}, the default) or one per block of up to {@link
 * IndexOptions#blockEvents()} events ({@link #BLOCKS}, issue 23). A bucket's format is fixed when
 * it is created and recorded in its directory ({@value #MARKER}; a bucket without one holds
 * events), so a bucket is read by its own layout whatever the index's configuration says now.
 *
 * <p>The block layout is versioned in the record: {@code blocks} (version 1) buckets keep their
 * segments sorted by {@code _time}, newest block first (Lucene's index sort, which rewrites the
 * stored fields at every flush and merge); {@code blocks 2} (version 2) keeps block documents in
 * the order they were written, and a time-ordered scan orders a segment's candidate blocks by their
 * newest event itself ({@link BlockCursor}); {@code blocks 3} (version {@value #BLOCKS_VERSION},
 * every new block bucket since session 39; session 27 built it) is version 2 without postings for
 * the events' terms: each block document carries a {@link io.quarry.codecs.block.TermFilter} of its
 * terms instead of {@code _tok} (see {@link BlockDocuments}), which a term query probes ({@link
 * BlockQueries}). It takes the {@code _tok} inversion and postings off ingest (server CPU −14% at
 * 10M lines) for +8% bytes and ~1.5× the candidate blocks of a rare term; wildcards whose literal
 * prefix is under 4 bytes read every block in range (docs/design/block-index.md, "Term filters at
 * 10M"). Which of the two a new block bucket takes is the index's {@link TermIndex} ({@code
 * storage.termIndex}: {@code filters}, version 3, or {@code postings}, version 2; session 40). A
 * reader refuses a version it does not know rather than misread it (a version 2 reader would find
 * no term in a version 3 bucket).
 */
public enum BucketFormat {
  EVENTS,
  BLOCKS;

  /** The file in a bucket's directory that names its format (absent: {@link #EVENTS}). */
  static final String MARKER = "bucket.format";

  /** The newest block layout version this build reads: 3, term filters instead of postings. */
  static final int BLOCKS_VERSION = 3;

  /**
   * A bucket's recorded format and layout version.
   *
   * @param version 1 for {@link #EVENTS} and for block buckets recorded as plain {@code blocks}
   */
  record Recorded(BucketFormat format, int version) {
    /** Whether the bucket's segments are sorted by time, newest first (Lucene's index sort). */
    boolean timeSorted() {
      return format == EVENTS || version < 2;
    }

    /** Whether the bucket's blocks carry term filters instead of {@code _tok} postings. */
    boolean termFilters() {
      return format == BLOCKS && version >= 3;
    }
  }

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
    Recorded recorded = recordedVersion(directory);
    return recorded == null ? null : recorded.format();
  }

  /**
   * The recorded format and layout version of the bucket in {@code directory}, or null when none is
   * recorded.
   *
   * @throws CorruptIndexException when the record names no format, or a version this build does not
   *     know (written by a newer Quarry)
   */
  static Recorded recordedVersion(Path directory) throws IOException {
    Path marker = directory.resolve(MARKER);
    if (!Files.exists(marker)) {
      return null;
    }
    String text = Files.readString(marker, StandardCharsets.UTF_8).strip();
    String[] parts = text.split(" ", -1);
    BucketFormat format;
    int version;
    try {
      format = fromName(parts[0]);
      version = parts.length == 1 ? 1 : Integer.parseInt(parts[1]);
    } catch (IllegalArgumentException e) {
      throw new CorruptIndexException("unknown bucket format '" + text + "'", marker.toString());
    }
    int newest = format == BLOCKS ? BLOCKS_VERSION : 1;
    if (parts.length > 2 || version < 1 || version > newest) {
      throw new CorruptIndexException(
          "unknown bucket format version '" + text + "' (newest known: " + newest + ")",
          marker.toString());
    }
    return new Recorded(format, version);
  }

  /**
   * The format and layout a hot bucket in {@code path} opens with, {@code recorded} its recorded
   * one: that; unrecorded, a bucket whose {@code directory} already holds an index is older than
   * recorded formats and holds events, and a new bucket takes {@code options}' format (a block
   * bucket's recorded now, {@link #record(Path, TermIndex)}).
   */
  static Recorded ofHot(Recorded recorded, Path path, Directory directory, IndexOptions options)
      throws IOException {
    if (recorded != null) {
      return recorded;
    }
    BucketFormat format = DirectoryReader.indexExists(directory) ? EVENTS : options.format();
    return format == BLOCKS
        ? format.record(path, options.termIndexOfNewBuckets())
        : new Recorded(EVENTS, 1);
  }

  /**
   * Records this format in a new bucket's {@code directory}, atomically and durably: a block bucket
   * at the layout version of {@code termIndex} ({@link TermIndex#blocksVersion}).
   */
  Recorded record(Path directory, TermIndex termIndex) throws IOException {
    return record(directory, this == BLOCKS ? termIndex.blocksVersion() : 1);
  }

  /**
   * Records this format at layout {@code version} (tests make older block layouts with it), as
   * {@link #record(Path)} does.
   */
  Recorded record(Path directory, int version) throws IOException {
    Recorded recorded = new Recorded(this, version);
    String text = configName() + (recorded.version() > 1 ? " " + recorded.version() : "");
    Path temporary = directory.resolve(MARKER + ".tmp");
    Files.writeString(temporary, text + "\n", StandardCharsets.UTF_8);
    IOUtils.fsync(temporary, false);
    Files.move(temporary, directory.resolve(MARKER), StandardCopyOption.ATOMIC_MOVE);
    IOUtils.fsync(directory, true);
    return recorded;
  }
}
