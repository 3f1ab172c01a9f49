package io.quarry.codecs.store;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The compaction merges an index finished since the server started, and the bytes they read: one
 * per index, shared by its buckets' {@link CompactionMergePolicy}s, so the figure never goes down
 * when a bucket is deleted (retention), reopened (recovery) or replaced (conversion).
 */
final class CompactionCounter {
  private final AtomicLong compactions = new AtomicLong();
  private final AtomicLong compactedBytes = new AtomicLong();

  /** Counts one finished compaction merge that read {@code bytes}. */
  void add(long bytes) {
    compactions.incrementAndGet();
    compactedBytes.addAndGet(bytes);
  }

  long compactions() {
    return compactions.get();
  }

  long compactedBytes() {
    return compactedBytes.get();
  }
}
