package io.quarry.codecs.store;

/**
 * Where an index's deferred compaction stands ({@link CompactionSettings}).
 *
 * @param pendingBytes bytes of hot-bucket segments whose journal blocks are still fast (0 when
 *     compaction is inline)
 * @param running whether a compaction merge is registered or running, or one ended that the hot
 *     bucket's last commit does not hold yet (its replaced fast segments are still on disk)
 * @param due whether a compaction will start without more events, once the hot bucket is idle at
 *     the latest ({@link CompactionSettings#due}); fast bytes under the idle minimum are not due:
 *     they wait for more events or the roll
 * @param compactions compaction merges finished since the index opened
 * @param compactedBytes the bytes those merges read
 * @param waitingSegments hot-bucket fast segments whose natural merges wait because the bucket
 *     takes events: the compaction merges those segments once it is idle (or at the bound, or the
 *     roll), so merging them now would be done twice ({@code CompactionMergePolicy}); at most
 *     {@code CompactionMergePolicy.MAX_DEFERRED_FAST_SEGMENTS} a bucket, for at most {@code
 *     BucketActivity.MAX_DEFERRAL_NANOS} without a compaction. Until session 40 the status counted
 *     the merges the last decision held back ({@code deferredMerges}), which fell to 0 whenever the
 *     wrapped policy wanted none (most flushes)
 */
public record CompactionStatus(
    long pendingBytes,
    boolean running,
    boolean due,
    long compactions,
    long compactedBytes,
    int waitingSegments) {

  /**
   * Whether no compaction runs and none will without more events: the index's store is settled
   * until it takes events again or its hot bucket rolls.
   */
  public boolean settled() {
    return !running && !due;
  }
}
