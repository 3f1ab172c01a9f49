package io.quarry.codecs.store;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;

/**
 * A whole segment of blocks' {@link BlockValueCounts}, added up per value: what a count over every
 * block of a segment needs (the block layout's analog of the event layout's document frequencies).
 * A segment never changes, so its totals are computed by the first search that asks — one pass over
 * the counts — and kept until the segment is closed (its core's closed listener drops them).
 *
 * @param byOrd the events with each value, by the segment's ordinal
 * @param everyBlock whether every block has counts for the field (every event has a value)
 * @param singleValued whether every block's counts add up to its events (one value per event)
 * @param events the events of the segment's blocks
 */
public record BlockTotals(long[] byOrd, boolean everyBlock, boolean singleValued, long events) {
  private static final Map<Object, Map<String, BlockTotals>> CACHE = new ConcurrentHashMap<>();

  /** The largest dictionary added up per segment. */
  private static final long MAX_VALUES = 1 << 21;

  /**
   * The totals of {@code field} over the segment, or null when it has no counts of the field, has
   * deletions, or too many values.
   */
  public static BlockTotals of(LeafReader reader, String field) throws IOException {
    IndexReader.CacheHelper core = reader.getCoreCacheHelper();
    if (core == null || reader.hasDeletions()) {
      return null;
    }
    Map<String, BlockTotals> byField =
        CACHE.computeIfAbsent(
            core.getKey(),
            key -> {
              core.addClosedListener(CACHE::remove);
              return new ConcurrentHashMap<>();
            });
    // one pass per segment and field: the slices of a search ask at once, and wait for it
    BlockTotals totals =
        byField.computeIfAbsent(
            field,
            f -> {
              try {
                BlockTotals computed = compute(reader, f);
                return computed == null ? NONE : computed;
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
    return totals == NONE ? null : totals;
  }

  /** The segment has no totals of a field (remembered as such). */
  private static final BlockTotals NONE = new BlockTotals(new long[0], false, false, 0);

  private static BlockTotals compute(LeafReader reader, String field) throws IOException {
    BlockValueCounts counts = BlockValueCounts.open(reader, field);
    NumericDocValues events = reader.getNumericDocValues(BlockDocuments.COUNT);
    if (counts == null || events == null || counts.valueCount() > MAX_VALUES) {
      return null;
    }
    long[] byOrd = new long[(int) counts.valueCount()];
    boolean everyBlock = true;
    boolean single = true;
    long total = 0;
    for (int doc = events.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = events.nextDoc()) {
      total += events.longValue();
      if (!counts.advanceExact(doc)) {
        everyBlock = false;
        continue;
      }
      single &= counts.total() == events.longValue();
      for (int v = 0; v < counts.size(); v++) {
        byOrd[(int) counts.ord(v)] += counts.count(v);
      }
    }
    return new BlockTotals(byOrd, everyBlock, single, total);
  }
}
