package io.quarry.codecs.store;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The node's bound on compactions ahead of a roll ({@link Bucket#compactBeforeRoll}): at most
 * {@code permits} full buckets, across every index of the {@link EventStore}, compact ahead of
 * their roll at once; another full bucket waits for its roll without compacting (reported {@code
 * rolling}, its index's compaction {@code due}) until a later commit finds a permit free. Each
 * index keeps at most one bucket waiting ({@code IndexStore}: when its hot bucket fills again the
 * waiting one rolls at once, on the store's scheduler thread), so the node compacts at most {@code
 * permits} buckets in the background and one more in a roll.
 *
 * <p>A permit is a bucket's from the start of its compaction until it rolls ({@link
 * Bucket#holdsRollPermit}): a bucket whose compaction ended rolls at its index's next commit
 * without asking again, never held back by another index's bucket that took the permit in between.
 * It is free again once the bucket rolled, failed or closed (its writer closed, its merges
 * aborted); nothing has to hand it back, so no close, failure or retention can leak one. Asked only
 * under an index's commit lock (or at its open), never the other way round; the monitor is held
 * only while a compaction's merges are registered (Lucene runs them on its merge threads).
 */
final class RollCompactions {
  /** One compaction at a time, two from four cores on. */
  static final int DEFAULT_PERMITS =
      Math.max(1, Math.min(2, Runtime.getRuntime().availableProcessors() / 2));

  private final int permits;
  private final List<Bucket> holders = new ArrayList<>(); // guarded by this

  RollCompactions(int permits) {
    if (permits < 1) {
      throw new IllegalArgumentException("permits must be positive: " + permits);
    }
    this.permits = permits;
  }

  /**
   * Runs {@code start} (which starts {@code bucket}'s compaction ahead of its roll and says whether
   * a merge now runs that the roll waits for) when the bucket holds a permit or one is free.
   *
   * @return whether the bucket's roll waits: a merge of it runs, or no permit was free
   */
  synchronized boolean start(Bucket bucket, IOStart start) throws IOException {
    holders.removeIf(holder -> holder != bucket && !holder.holdsRollPermit());
    boolean holds = holders.contains(bucket);
    if (!holds && holders.size() >= permits) {
      return true;
    }
    boolean merging = start.merging();
    if (merging && !holds) {
      holders.add(bucket);
    } else if (!merging) {
      holders.remove(bucket);
    }
    return merging;
  }

  /** Starts a compaction ahead of a roll: whether a merge the roll waits for now runs. */
  @FunctionalInterface
  interface IOStart {
    boolean merging() throws IOException;
  }
}
