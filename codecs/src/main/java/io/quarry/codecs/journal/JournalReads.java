package io.quarry.codecs.journal;

/**
 * What the current thread spent decoding journal blocks: blocks, decompressed bytes and
 * nanoseconds, counted by every {@link JournalStoredFieldsReader} on this thread. A scan reads the
 * counters before and after the work it does on a thread and attributes the difference to its
 * search (the job inspector's "journal decode"); one {@link ThreadLocal} lookup per block.
 */
public final class JournalReads {
  private static final ThreadLocal<long[]> COUNTERS = ThreadLocal.withInitial(() -> new long[4]);

  private JournalReads() {}

  static void add(long nanos, long bytes) {
    long[] counters = COUNTERS.get();
    counters[0]++;
    counters[1] += bytes;
    counters[2] += nanos;
  }

  /**
   * Counts a block of which only a prefix was decoded ({@link JournalPrefix}): a prefix read (not a
   * whole block), its bytes and time as {@link #add} counts them.
   */
  static void addPrefix(long nanos, long bytes) {
    long[] counters = COUNTERS.get();
    counters[1] += bytes;
    counters[2] += nanos;
    counters[3]++;
  }

  /**
   * The current thread's counters so far: {@code [blocks, bytes, nanos, prefix blocks]} (blocks
   * decoded whole; the blocks of which only a prefix was decoded counted apart, their bytes and
   * time with the others) (a copy; subtract two readings to get what happened between them).
   */
  public static long[] read() {
    return COUNTERS.get().clone();
  }
}
