package io.quarry.codecs.store;

import java.util.Locale;

/**
 * The segments of a bucket (or an index) whose journal is of one kind, and their bytes: what the
 * segments actually hold, which the index's setting ({@code journalCompression}) does not say —
 * each segment records its own codec, so segments written under another setting, or fast segments
 * still waiting for compaction, read as they were written.
 *
 * @param codec the codec of the segments' journal blocks ({@code none}, {@code lz4}, {@code zstd})
 * @param level the encoder level of the blocks ({@code JournalCodec}: lz4 0 is the fast encoder, 9
 *     lz4hc; zstd 1 fast, 12 compact since session 42, 9 before), -1 for segments written before
 *     the data file recorded it
 * @param compact whether the segments were written compact (by a compaction or a large merge, the
 *     segments that stay) rather than fast (flushes and small merges, waiting for compaction);
 *     segments written before session 33 do not say and count as compact
 * @param formatVersion the journal data file's format version ({@code JournalStoredFieldsFormat})
 * @param segments how many segments
 * @param bytes their journal's compressed bytes
 * @param rawBytes their journal's bytes before compression
 */
public record JournalKind(
    String codec,
    int level,
    boolean compact,
    int formatVersion,
    int segments,
    long bytes,
    long rawBytes) {

  /**
   * Adds {@code kind} to {@code journals}: into the entry of the same kind (its segments and bytes
   * summed), or as a new entry.
   */
  public static void addTo(java.util.List<JournalKind> journals, JournalKind kind) {
    for (int i = 0; i < journals.size(); i++) {
      if (journals.get(i).sameKind(kind)) {
        journals.set(i, journals.get(i).plus(kind));
        return;
      }
    }
    journals.add(kind);
  }

  /** Whether {@code other} is a journal of the same kind (its counts aside). */
  boolean sameKind(JournalKind other) {
    return codec.equals(other.codec)
        && level == other.level
        && compact == other.compact
        && formatVersion == other.formatVersion;
  }

  /** This kind with {@code other}'s segments and bytes added (of the same kind). */
  JournalKind plus(JournalKind other) {
    return new JournalKind(
        codec,
        level,
        compact,
        formatVersion,
        segments + other.segments,
        bytes + other.bytes,
        rawBytes + other.rawBytes);
  }

  /** One line: {@code zstd 12 compact (v2)}. */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "%s %s%s (v%d)",
        codec,
        level < 0 ? "" : level + " ",
        compact ? "compact" : "fast",
        formatVersion);
  }
}
