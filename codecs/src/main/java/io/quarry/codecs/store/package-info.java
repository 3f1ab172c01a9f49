/**
 * The event store: one Lucene index per Quarry index under the data directory, one document per
 * event, index-sorted by {@code _time} newest first; group commit for durable acknowledgements;
 * near-real-time readers; and the newest-first scan that merges segments by time.
 *
 * <p>This is the first slice's store. The storage-engine issue replaces it with time-partitioned
 * buckets, the journal codec for {@code _raw} and a write-ahead log; the field layout in {@link
 * io.quarry.codecs.store.EventFields} is meant to survive that change.
 */
package io.quarry.codecs.store;
