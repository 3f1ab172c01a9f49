package io.quarry.codecs.store;

/**
 * Where a {@link Bucket} is: hot (its writer takes adds), rolling to warm, warm (read-only, its
 * manifest written), or failed (a roll threw after closing its writer).
 */
enum BucketState {
  HOT,
  ROLLING,
  WARM,
  FAILED;

  /**
   * What {@code quarry indexes} calls it: {@code warm}; {@code rolling} while the bucket waits for
   * its roll ({@code waitingForRoll}: full, compacting ahead of it or waiting for the node's permit
   * to) or rolls; {@code hot} otherwise.
   */
  String displayName(boolean waitingForRoll) {
    if (this == WARM) {
      return "warm";
    }
    return this == ROLLING || waitingForRoll ? "rolling" : "hot";
  }
}
