/**
 * The journal: Quarry's stored-fields format, where the raw events live. Documents are packed into
 * blocks of about 128 KiB, each compressed on its own by the segment's {@link
 * io.quarry.codecs.journal.JournalCodec} (zstd, lz4 or none) and checksummed; see {@link
 * io.quarry.codecs.journal.JournalStoredFieldsFormat} for the file grammar. {@link
 * io.quarry.codecs.journal.JournalCompression}, an index's setting, names the codec of segments
 * written fast and of those written compact. {@link io.quarry.codecs.journal.QuarryCodec} is the
 * Lucene codec that puts it in place of Lucene's stored fields. {@code JournalBlockIndex} is the
 * grammar of a segment's block index, read and written; {@code JournalBlockCopies} which blocks a
 * merge copies as they are. {@link io.quarry.codecs.journal.JournalStoredFieldsReader} adds
 * block-at-a-time decoding for dense scans, and {@link io.quarry.codecs.journal.JournalPrefix} a
 * document's first bytes decoded no further than asked (unverified: the block's checksum covers all
 * of it), cheap since the zstd writer ends a zstd block where a block's first event block's times
 * end ({@link io.quarry.codecs.journal.JournalTimesEnd}); {@link
 * io.quarry.codecs.journal.JournalReads} counts per thread what decoding cost, for the job
 * inspector.
 */
package io.quarry.codecs.journal;
