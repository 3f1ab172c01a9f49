package io.quarry.codecs.store;

/**
 * What {@code quarry indexes} shows of one bucket.
 *
 * @param state {@code hot} (takes writes), {@code rolling} (full: compacting ahead of its roll, or
 *     rolling) or {@code warm}
 * @param minTime oldest event, epoch microseconds (0 when empty)
 * @param maxTime newest event, epoch microseconds (0 when empty)
 * @param bytes bytes on disk (journal, term index, doc values, points together)
 * @param journalRawBytes bytes of the journal before compression (about the raw events' size)
 * @param journalBytes bytes of the journal after compression
 * @param format how the bucket lays out its events
 */
public record BucketInfo(
    long id,
    String state,
    long events,
    long minTime,
    long maxTime,
    long bytes,
    long journalRawBytes,
    long journalBytes,
    BucketFormat format) {

  /** What {@code bucket} holds now. */
  static BucketInfo of(Bucket bucket) throws java.io.IOException {
    long[] journal = bucket.events() == 0 ? new long[2] : BucketBytes.journal(bucket);
    return new BucketInfo(
        bucket.id(),
        bucket.stateName(),
        bucket.events(),
        bucket.events() == 0 ? 0 : bucket.minTime(),
        bucket.events() == 0 ? 0 : bucket.maxTime(),
        BucketBytes.onDisk(bucket),
        journal[0],
        journal[1],
        bucket.format());
  }
}
