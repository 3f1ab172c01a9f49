package io.quarry.codecs.journal;

import java.util.Locale;

/**
 * An index's setting for how new journal blocks are compressed: the {@link JournalCodec} of the
 * segments written fast (flushes and small merges: young segments, merged again soon) and of those
 * written compact (large merges: the segments that stay, decoded by every search that reads events;
 * see {@link JournalStoredFieldsFormat}). Each segment records its own codec, so changing the
 * setting, or one setting's two codecs, needs no format change and old segments read as they were.
 */
public enum JournalCompression {
  /** No compression: the fastest decode, the largest files. */
  NONE("none", JournalCodec.NONE, JournalCodec.NONE),
  /** lz4 for both: lz4's fast encoder, then lz4hc for compact merges. */
  LZ4("lz4", JournalCodec.LZ4, JournalCodec.LZ4),
  /**
   * zstd for both: level 1, then level 12 for compact merges (9 before session 42) (the default
   * before session 40).
   */
  ZSTD("zstd", JournalCodec.ZSTD, JournalCodec.ZSTD),
  /**
   * lz4's fast encoder for fast segments (the ingest's flushes and small merges: young, merged
   * again soon), zstd 12 for compact merges (9 before session 42) (the segments that stay): the
   * default since session 40. On an access log's block journal lz4 writes ~1.6x faster than zstd 1
   * (the encode is paid on the ingest's threads at every flush) and decodes ~2.5x faster (paid
   * again by the compaction that rewrites the young segments, and by searches during the ingest),
   * for ~45% more transient bytes; settled bytes are the compact merge's zstd 12, as with {@link
   * #ZSTD}. A search of a young segment still reads an event block's times without its texts
   * ({@link Lz4PrefixDecoder}).
   */
  LZ4_ZSTD("lz4-zstd", JournalCodec.LZ4, JournalCodec.ZSTD),
  /**
   * Fast segments uncompressed, zstd 12 for compact merges (session 47): the ingest's flushes pay
   * no encode and the compaction no decode of the young blocks (a copy of their bytes instead), for
   * ~4x the transient journal bytes of {@link #LZ4_ZSTD} until the compaction (the fast segments'
   * {@code storage.compaction.pendingBytes} bound is reached that much sooner); settled bytes are
   * the compact merge's zstd 12, as with {@link #LZ4_ZSTD}. A search reads a young segment's blocks
   * whole, as under {@link #NONE} (a block with nothing to decode takes no prefix read: {@code
   * PrefixTimes.of}). Not the default: on the 10M reference ingest (2 cores) it saved no server CPU
   * against {@link #LZ4_ZSTD} in any of three pairs (+3-23% to settled, its compaction moved into
   * the window by the bound) nor, with the bound at 4 GiB, beyond the pairs' noise
   * (benchmarks/RESULTS.md, session 47).
   */
  NONE_ZSTD("none-zstd", JournalCodec.NONE, JournalCodec.ZSTD),
  /**
   * zstd level 1 for fast segments (small, for the ingest's flushes and small merges), lz4hc for
   * compact merges (decodes several times faster than zstd for ~20% more bytes than zstd 9).
   */
  ZSTD_LZ4("zstd-lz4", JournalCodec.ZSTD, JournalCodec.LZ4);

  private final String configName;
  private final JournalCodec fast;
  private final JournalCodec compact;

  JournalCompression(String configName, JournalCodec fast, JournalCodec compact) {
    this.configName = configName;
    this.fast = fast;
    this.compact = compact;
  }

  /** The codec of a segment written fast ({@code compact} false) or compact. */
  public JournalCodec codec(boolean compact) {
    return compact ? this.compact : fast;
  }

  /** The configuration value that names this setting. */
  public String configName() {
    return configName;
  }

  /**
   * Parses a configuration value: {@code lz4-zstd}, {@code none-zstd}, {@code zstd}, {@code lz4},
   * {@code zstd-lz4} or {@code none}.
   */
  public static JournalCompression fromName(String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    for (JournalCompression compression : values()) {
      if (compression.configName.equals(wanted)) {
        return compression;
      }
    }
    throw new IllegalArgumentException(
        "unknown journal compression '"
            + name
            + "': use lz4-zstd, none-zstd, zstd, lz4, zstd-lz4 or none");
  }
}
