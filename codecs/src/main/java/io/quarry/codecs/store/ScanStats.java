package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.journal.JournalReads;
import java.util.List;

/**
 * What a scan touched: indexes, buckets opened and skipped by their time bounds, segments opened
 * and those the term index and time range left without a candidate, events read from storage (after
 * the term index and time range narrowed them), where the scan's time went ({@link Costs}), and
 * warnings (damaged buckets that were quarantined, whose events the results miss).
 */
public record ScanStats(
    int indexes,
    int buckets,
    int bucketsSkipped,
    int segments,
    int segmentsSkipped,
    long eventsRead,
    Costs costs,
    List<String> warnings) {
  public ScanStats {
    requireNonNull(costs, "costs is null");
    warnings = List.copyOf(warnings);
  }

  /** These statistics with {@code more} costs added. */
  public ScanStats plusCosts(Costs more) {
    return new ScanStats(
        indexes,
        buckets,
        bucketsSkipped,
        segments,
        segmentsSkipped,
        eventsRead,
        costs.plus(more),
        warnings);
  }

  /** A scan of nothing stored (generated rows): only the rows it made. */
  public static ScanStats generated(long rows) {
    return new ScanStats(0, 0, 0, 0, 0, rows, Costs.NONE, List.of());
  }

  /**
   * Where a scan's time went, summed over its threads: the term index (rewriting the query,
   * building each segment's scorer, counting documents without reading them) and the journal
   * (blocks decompressed and checked, their bytes, the time it took; {@code prefixBlocks} the
   * blocks of which only the first bytes were decoded for their times, not among {@code
   * journalBlocks}, their bytes and time in {@code journalBytes} and {@code journalDecodeNanos});
   * {@code sharedMatchSlices} the slices that read their segment's candidate blocks found once for
   * all its slices ({@link LeafMatches}) instead of building the scorer again. The rest of a scan's
   * time is the pipeline's (per stage in the job inspector).
   */
  public record Costs(
      long indexLookupNanos,
      long journalBlocks,
      long journalBytes,
      long journalDecodeNanos,
      long prefixBlocks,
      long sharedMatchSlices) {
    public static final Costs NONE = new Costs(0, 0, 0, 0, 0, 0);

    public Costs plus(Costs other) {
      return new Costs(
          indexLookupNanos + other.indexLookupNanos,
          journalBlocks + other.journalBlocks,
          journalBytes + other.journalBytes,
          journalDecodeNanos + other.journalDecodeNanos,
          prefixBlocks + other.prefixBlocks,
          sharedMatchSlices + other.sharedMatchSlices);
    }

    /** The journal work this thread did since {@code before} (a {@link JournalReads#read}). */
    static Costs journalSince(long[] before) {
      long[] now = JournalReads.read();
      return new Costs(
          0, now[0] - before[0], now[1] - before[1], now[2] - before[2], now[3] - before[3], 0);
    }

    static Costs indexLookup(long nanos) {
      return new Costs(nanos, 0, 0, 0, 0, 0);
    }

    /**
     * A slice that read its segment's shared candidates, {@code nanos} to find or wait for them.
     */
    static Costs sharedMatches(long nanos) {
      return new Costs(nanos, 0, 0, 0, 0, 1);
    }
  }
}
