package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.journal.JournalCompression;
import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import java.time.Duration;

/**
 * Storage settings of one Quarry index.
 *
 * @param journalCompression how new journal blocks are compressed (existing segments keep theirs)
 * @param journalBlockSize uncompressed bytes per journal block
 * @param commitInterval how often buffered events are committed to Lucene segments; until then the
 *     write-ahead log holds them
 */
public record IndexOptions(
    JournalCompression journalCompression, int journalBlockSize, Duration commitInterval) {

  public static final IndexOptions DEFAULTS =
      new IndexOptions(
          JournalCompression.ZSTD,
          JournalStoredFieldsFormat.DEFAULT_BLOCK_SIZE,
          Duration.ofSeconds(10));

  public IndexOptions {
    requireNonNull(journalCompression, "journalCompression is null");
    requireNonNull(commitInterval, "commitInterval is null");
    if (journalBlockSize < 1024) {
      throw new IllegalArgumentException(
          "journalBlockSize must be at least 1024: " + journalBlockSize);
    }
    if (commitInterval.isNegative() || commitInterval.isZero()) {
      throw new IllegalArgumentException("commitInterval must be positive: " + commitInterval);
    }
  }
}
