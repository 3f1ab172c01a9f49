package io.quarry.codecs.store;

import java.io.IOException;
import java.util.List;
import java.util.logging.Logger;

/**
 * The rolls of an index's full buckets (past their hot time, no longer taking events; their events
 * committed or in the log): each compacts ahead of its roll in the background, into the roll's own
 * segments, once the node has a permit for it ({@link RollCompactions}), and a later commit rolls
 * it once no merge of it runs, so the roll's forced merge under the commit lock finds nothing to
 * merge. {@code IndexStore} calls it under its commit lock.
 */
final class FullBucketRolls {
  private static final Logger LOG = Logger.getLogger(IndexStore.class.getName());

  private final String name;
  private final List<Bucket> buckets; // the index's
  private final RollCompactions node;

  FullBucketRolls(String name, List<Bucket> buckets, RollCompactions node) {
    this.name = name;
    this.buckets = buckets;
    this.node = node;
  }

  /**
   * Starts the compaction ahead of a bucket that just filled (committed, a new hot bucket taking
   * the writes), or rolls it now: compaction inline (the roll compacts), or nothing to wait for. A
   * later {@link #rollWaiting} rolls it otherwise.
   */
  void compactOrRoll(Bucket full) throws IOException {
    if (!full.compactBeforeRoll(node)) {
      roll(full);
    }
  }

  /**
   * Rolls each bucket but {@code hot} that waits for its roll and whose merges ended: when fast
   * segments are left (flushed by its last commit while an idle compaction ran, or after a restart)
   * another compaction starts first; one waiting for the node's permit starts its compaction once a
   * permit is free. With {@code now} (the hot bucket fills, or a roll is asked for) it rolls at
   * once, waiting for the compaction under the commit lock on the store's scheduler thread as rolls
   * did before session 34: at most one bucket of an index compacts ahead of its roll, and a
   * never-idle ingest that fills buckets faster than they compact is held back by its commits
   * instead of piling up buckets that compact at once.
   */
  void rollWaiting(Bucket hot, boolean now) throws IOException {
    for (Bucket bucket : buckets) {
      if (bucket == hot || bucket.isWarm()) {
        continue;
      }
      if (now || !bucket.compactionMerging() && !bucket.compactBeforeRoll(node)) {
        roll(bucket);
      }
    }
  }

  /** Rolls {@code bucket} to warm now. */
  void roll(Bucket bucket) throws IOException {
    bucket.roll();
    LOG.info(
        "index "
            + name
            + ": bucket "
            + bucket.id()
            + " rolled to warm with "
            + bucket.events()
            + " events");
  }
}
