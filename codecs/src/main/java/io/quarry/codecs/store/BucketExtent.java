package io.quarry.codecs.store;

/**
 * What a {@link Bucket} holds as it grows: the oldest and newest event times, the event count and
 * the last sequence number. Set once when the bucket opens (from its manifest, or from what its
 * writer committed, {@link CommittedBounds}), then widened by every add; many threads add at once.
 * Each value is volatile, read without a lock; the updates take this object's lock. An add widens
 * the time bounds before its document can reach a searcher ({@link #widen}) and counts it after
 * ({@link #counted}): a scan trusts the bounds to hold every event its searcher sees ({@link
 * TimeOrderedScan}).
 */
final class BucketExtent {
  private volatile long minTime;
  private volatile long maxTime;
  private volatile long events;
  private volatile long maxSequence;

  /** Sets every value (the bucket opening). */
  synchronized void set(long minTime, long maxTime, long events, long maxSequence) {
    this.minTime = minTime;
    this.maxTime = maxTime;
    this.events = events;
    this.maxSequence = maxSequence;
  }

  /** Widens the time bounds to {@code [oldest, newest]}. */
  synchronized void widen(long oldest, long newest) {
    if (oldest < minTime) {
      minTime = oldest;
    }
    if (newest > maxTime) {
      maxTime = newest;
    }
  }

  /** Counts {@code count} events added, the last of sequence number {@code lastSequence}. */
  synchronized void counted(int count, long lastSequence) {
    events += count;
    if (lastSequence > maxSequence) {
      maxSequence = lastSequence;
    }
  }

  long minTime() {
    return minTime;
  }

  long maxTime() {
    return maxTime;
  }

  long events() {
    return events;
  }

  long maxSequence() {
    return maxSequence;
  }

  /** Whether any event can lie in {@code [earliest, latest)}. */
  boolean overlaps(long earliest, long latest) {
    return events > 0 && maxTime >= earliest && minTime < latest;
  }

  /** The manifest of a bucket created at {@code created} holding this extent. */
  BucketManifest manifest(long created) {
    return new BucketManifest(minTime, maxTime, events, maxSequence, created);
  }
}
