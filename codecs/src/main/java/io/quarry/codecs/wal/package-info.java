/**
 * The write-ahead log: every batch of events is appended and fsync'd here (with group commit)
 * before it is acknowledged, and replayed into the index after a crash. Lucene commits happen in
 * the background; the log keeps what they have not covered yet.
 */
package io.quarry.codecs.wal;
