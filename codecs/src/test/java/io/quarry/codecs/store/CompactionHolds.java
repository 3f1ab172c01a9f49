package io.quarry.codecs.store;

import java.io.Closeable;

/**
 * Holds an {@link EventStore}'s compactions back ({@link CompactionPermits#hold}): no compaction
 * not yet started gets a permit until the hold is closed, so a full bucket waits for its roll and
 * its index reaches {@link IndexBusyException}. Public, in the codecs test-jar, for the server's
 * tests on a real server; the store itself has no such hook.
 */
public final class CompactionHolds {
  private CompactionHolds() {}

  /** Holds {@code store}'s compactions back until the returned hold is closed; holds nest. */
  public static Closeable hold(EventStore store) {
    return store.compactionPermits().hold();
  }
}
