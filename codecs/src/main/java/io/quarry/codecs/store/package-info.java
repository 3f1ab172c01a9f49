/**
 * The event store: per Quarry index a write-ahead log and time-partitioned buckets, each a Lucene
 * index written with the journal codec and sorted newest first; group commit for durable
 * acknowledgements ({@code IndexWrites}; a batch logged whose fsync is waited for later, {@link
 * io.quarry.codecs.store.LoggedBatch}, for a request writing to several indexes at once), commits
 * and rolls through the index's own serial queue on the node's bounded committer pool ({@code
 * IndexCommits}, {@code IndexCommitQueue}, {@code CommitterPool}; at most {@code maxWaitingBuckets}
 * full buckets wait for their roll, then the index refuses adds with {@code IndexBusyException};
 * tests hold compactions back through the codecs test-jar's {@code CompactionHolds}), a bucket's
 * live times and counts ({@code BucketExtent}), near-real-time readers ({@code BucketSearchers}),
 * recovery by sequence number ({@code LogRecovery}), retention and quarantine, a hot bucket's
 * journal compacted out of the ingest window ({@link io.quarry.codecs.store.CompactionSettings},
 * {@code CompactionMergePolicy}; per bucket {@code BucketCompaction}, per index {@code
 * IndexCompaction}, a full bucket's compaction ahead of its roll and its retried roll in {@code
 * FullBucketRolls}, every compaction under the node's {@code CompactionPermits}); and the scans
 * (newest-first merge, parallel slices) that turn documents back into events. Both are read through
 * an {@link io.quarry.codecs.store.EventCursor}, advanced to the end or pulled a page at a time: a
 * parallel scan's slice through its {@link io.quarry.codecs.store.SliceCursor} (by a {@link
 * io.quarry.codecs.store.ScanSlice}), the newest-first merge through its {@link
 * io.quarry.codecs.store.TimeOrderedCursor}; a block wholly in the scan's range is decoded in
 * either only when its events are asked for what its payload holds.
 *
 * <p>A bucket lays out its events in one of two {@link io.quarry.codecs.store.BucketFormat
 * formats}: a document per event ({@link io.quarry.codecs.store.EventFields}), or a document per
 * block of events ({@code BlockDocuments} writes, its events' index-time fields walked into columns
 * by {@code BlockFieldColumns}; {@code BlockQueries}, {@code BlockCursor} and {@code BlockEvents}
 * read — its texts lent by {@code BlockTexts}, a run's times read ahead of the payload by {@code
 * BlockPrefixTimes} — {@code BlockPayload} takes a block out of the journal; {@link
 * io.quarry.codecs.store.BlockValueCounts} holds each block's {@code value → count} per field
 * ({@code BlockValueTally} writes it, {@code ValueOrder} ordering the values; {@code BlockKeywords}
 * writes the block's keyword terms), which a visitor's {@link
 * io.quarry.codecs.store.EventVisitor#blockShortcut} counts from instead of decoding the block;
 * {@link io.quarry.codecs.store.BlockValueCodes} each event's value among them (two fields' codes
 * counted by pair straight from their bytes by {@link io.quarry.codecs.store.CodePairCounts}, a
 * filter's four-bit codes compared sixteen at a time by {@code NibbleSelect}), with a "no value"
 * code for a field some events lack whose texts do not mention it, {@code TextMentions}).
 */
package io.quarry.codecs.store;
