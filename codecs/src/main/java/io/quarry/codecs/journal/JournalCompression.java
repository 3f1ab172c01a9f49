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
  /** zstd for both: level 1, then level 9 for compact merges. The default. */
  ZSTD("zstd", JournalCodec.ZSTD, JournalCodec.ZSTD),
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

  /** Parses a configuration value: {@code zstd}, {@code lz4}, {@code zstd-lz4} or {@code none}. */
  public static JournalCompression fromName(String name) {
    String wanted = name.strip().toLowerCase(Locale.ROOT);
    for (JournalCompression compression : values()) {
      if (compression.configName.equals(wanted)) {
        return compression;
      }
    }
    throw new IllegalArgumentException(
        "unknown journal compression '" + name + "': use zstd, lz4, zstd-lz4 or none");
  }
}
