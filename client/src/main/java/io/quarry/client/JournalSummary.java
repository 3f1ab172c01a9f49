package io.quarry.client;

/**
 * Segments whose journal is of one kind, as {@code GET /api/v1/indexes} lists them per index and
 * per bucket ({@code journal}): what the segments actually hold, whatever the index's compression
 * setting says now.
 *
 * @param codec {@code none}, {@code lz4} or {@code zstd}
 * @param level the encoder level of the blocks (lz4: 0 fast, 9 lz4hc; zstd: 1 fast, 9 compact), -1
 *     when the segments do not record it (written before the journal's format version 2)
 * @param compact whether the segments were written compact (a compaction, a roll, a large merge)
 *     rather than fast (young segments waiting for the compaction)
 * @param formatVersion the journal data file's format version
 * @param segments how many segments
 * @param bytes their journal's compressed bytes
 * @param rawBytes their journal's bytes before compression
 */
public record JournalSummary(
    String codec,
    int level,
    boolean compact,
    int formatVersion,
    int segments,
    long bytes,
    long rawBytes) {}
