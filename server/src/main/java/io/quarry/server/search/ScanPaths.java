package io.quarry.server.search;

/**
 * How much of one search's scan went by its fast paths, summed over its threads ({@link
 * SearchControl} counts them as the scan goes, {@link SearchStats#paths} carries them): the
 * counters the job inspector's {@code costs.scan} and the summary line show. A new path adds its
 * counter here, to {@link SearchControl#paths} and to where it is shown ({@code rest.JobCosts},
 * {@link SearchStats#summary}); {@link SearchStats} and its copies stay as they are.
 *
 * @param eventsByRun events the scan put on pages by block runs, one loop per column over a run of
 *     a block's events rather than event by event (see {@code EventPages}); 0 for the events a
 *     {@code rex} counted in the scan ({@code RexCounting}: no page)
 * @param pagesByOrdinal pages of a {@code stats … by} grouped by segment ordinal: their by-field a
 *     segment's whole dictionary ({@link PageShape#byOrdinal}, {@code SegmentDictionaryBlocks})
 * @param pagesByEntry pages of a {@code stats … by} whose groups the aggregation kept by entry of
 *     that whole dictionary ({@code aggregation.EntryPartial}: no key hashed per page; a dictionary
 *     of more than 1,024 entries), the entries hashed once when the groups are handed over
 * @param pagesInPlace of those, the pages added to states kept a group per dictionary entry, a
 *     row's states found by its ordinal ({@code aggregation.InPlaceEntries}: once a quarter of the
 *     entries were met)
 * @param groupsHandedWhole groups of such a dictionary's entries whose keys the final aggregation
 *     never hashed ({@code aggregation.GroupKeys#unhashed} when the answer was built): handed over
 *     as keys in entry order, no lookup after (a later partial's keys looked up among them hashes
 *     them all, so with several segments mostly 0), their answer order checked against the
 *     dictionary's instead of sorted
 * @param blocksSelectedByWords blocks counted from their value codes whose filter's matching events
 *     were found sixteen four-bit codes at a time ({@code store.NibbleSelect}: {@code status>=500 |
 *     stats count by clientip})
 * @param blocksCountedByCodePairs blocks whose events a {@code stats count by f1, f2} counted by
 *     the pair of their codes straight from the packed bytes ({@code store.CodePairCounts})
 * @param eventsCountedByRex events whose fused {@code rex} value the scan counted itself, no page
 *     made ({@code RexCounting}: {@code rex … | stats count by} its field)
 * @param eventsAggregatedByKeyValue events a {@code stats} of counts and {@code _time} extremes by
 *     a key=value field aggregated in the scan itself, no page made ({@code KeyValueStates}), those
 *     without the key among them (no group)
 * @param keyTablesHandedOnEarly of that scan's per-key tables ({@code KeyStateTables}), those whose
 *     states were handed on (not an empty one) for good beside the scan's last slices, once no
 *     slice was left to start ({@code ScanSlice.noSliceLeft}), rather than after the scan on one
 *     thread; at least one when the scan aggregated by key=value and every slice of it started
 */
public record ScanPaths(
    long eventsByRun,
    long pagesByOrdinal,
    long pagesByEntry,
    long pagesInPlace,
    long groupsHandedWhole,
    long blocksSelectedByWords,
    long blocksCountedByCodePairs,
    long eventsCountedByRex,
    long eventsAggregatedByKeyValue,
    long keyTablesHandedOnEarly) {
  /** No scan, or none of it by a fast path (a metric search's). */
  public static final ScanPaths NONE = new ScanPaths(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
}
