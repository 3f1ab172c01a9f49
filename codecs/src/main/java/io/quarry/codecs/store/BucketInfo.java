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
 * @param layoutVersion the version of that layout ({@link BucketFormat}: 1 for events; 1, 2 or 3
 *     for blocks), fixed when the bucket was made
 * @param segments the segments a search of the bucket reads now (0 for a failed bucket)
 * @param documents their documents: events, or blocks of events
 * @param journals their journal by kind (codec, level, fast or compact, format version) and its
 *     bytes: what the segments actually hold, whatever the index's setting says now
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
    BucketFormat format,
    int layoutVersion,
    int segments,
    long documents,
    java.util.List<JournalKind> journals) {

  public BucketInfo {
    journals = java.util.List.copyOf(journals);
  }

  /**
   * The layout as the bucket's directory records it: {@code events}, {@code blocks}, {@code blocks
   * 2} or {@code blocks 3}.
   */
  public String layout() {
    return format.configName() + (layoutVersion > 1 ? " " + layoutVersion : "");
  }

  /** The state of a bucket whose writer failed. */
  static final String FAILED = "failed";

  /**
   * What {@code bucket} holds now. A bucket whose writer failed (a failed roll closed it, or a
   * tragic exception) is listed {@code failed}, without its segments and journal's bytes, which
   * only a searcher reads: the next add, search or commit recovers it.
   */
  static BucketInfo of(Bucket bucket) throws java.io.IOException {
    BucketSegments segments = BucketSegments.NONE;
    String state = bucket.failed() ? FAILED : bucket.stateName();
    try {
      segments = bucket.events() == 0 || state == FAILED ? segments : BucketSegments.of(bucket);
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
        segments.journalRawBytes(),
        segments.journalBytes(),
        bucket.format(),
        bucket.layoutVersion(),
        segments.segments(),
        segments.documents(),
        segments.journals());
  }
}
