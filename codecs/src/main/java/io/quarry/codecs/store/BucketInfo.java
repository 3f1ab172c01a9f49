package io.quarry.codecs.store;

/**
 * What {@code quarry indexes} shows of one bucket.
 *
 * @param state {@code hot} (takes writes), {@code rolling} (full: compacting ahead of its roll, or
 *     rolling), {@code warm} or {@code failed} (its writer failed: recovered at the next add,
 *     search or commit)
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

  /** The state of a bucket whose writer failed. */
  static final String FAILED = "failed";

  /**
   * What {@code bucket} holds now. A bucket whose writer failed (a failed roll closed it, or a
   * tragic exception) is listed {@code failed}, without its journal's bytes, which only a searcher
   * reads: the next add, search or commit recovers it.
   */
  static BucketInfo of(Bucket bucket) throws java.io.IOException {
    long[] journal = new long[2];
    String state = bucket.failed() ? FAILED : bucket.stateName();
    try {
      journal = bucket.events() == 0 || state == FAILED ? journal : BucketBytes.journal(bucket);
    } catch (java.io.IOException e) {
      if (!bucket.failed()) {
        throw e;
      }
      state = FAILED; // failed meanwhile
    }
    return new BucketInfo(
        bucket.id(),
        state,
        bucket.events(),
        bucket.events() == 0 ? 0 : bucket.minTime(),
        bucket.events() == 0 ? 0 : bucket.maxTime(),
        BucketBytes.onDisk(bucket),
        journal[0],
        journal[1],
        bucket.format());
  }
}
