/**
 * The write-ahead log: every batch of events is appended and fsync'd here (with group commit)
 * before it is acknowledged, and replayed into the index after a crash. Lucene commits happen in
 * the background; the log keeps what they have not covered yet. {@link
 * io.quarry.codecs.wal.WriteAheadLog} appends, syncs and replays; a batch is encoded outside its
 * lock into a pooled array ({@link io.quarry.codecs.wal.EncodedBatch}, {@link
 * io.quarry.codecs.wal.WalCodec}: format version 2, the events' texts as one body written from the
 * request body, hosts, sources and field names once a record ({@link
 * io.quarry.codecs.wal.WalStrings}), into one growable array ({@link
 * io.quarry.codecs.wal.WalOutput}, which also writes strings as Lucene does, cheaper); {@link
 * io.quarry.codecs.wal.WalRecordV1} reads version 1's records); {@link
 * io.quarry.codecs.wal.WalFile} is one file's format (a record's framing too), its creation and
 * reading, {@link io.quarry.codecs.wal.WalOpening} the replay on open and what it does with a file
 * that stopped short, {@link io.quarry.codecs.wal.WalFileCheck} the read-only check {@code quarry
 * fsck} runs.
 */
package io.quarry.codecs.wal;
