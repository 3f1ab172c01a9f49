package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.exec.StageStats;
import java.time.Duration;
import java.util.List;

/**
 * What a search did, for the caller and the job inspector.
 *
 * @param indexes the indexes searched
 * @param buckets the buckets opened
 * @param bucketsSkipped the buckets skipped by their time bounds, never opened
 * @param segments the segments opened
 * @param segmentsSkipped segments opened whose term index and time range left no candidate
 * @param eventsRead events read from storage after the term index and time range
 * @param eventsMatched events that passed the search expression
 * @param rows result rows produced
 * @param exactIndexQuery whether the term index answered the search expression alone
 * @param scanCosts where the scan's time went: term index, journal decode (summed over threads)
 * @param fieldExtraction search-time field extraction time (sampled, summed over threads)
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
 * @param stages per pipeline stage: rows in and out, time spent (see {@link StageStats})
 * @param messages warnings for the user (missing index, truncated results)
 * @param metricScan for a search of metric indexes ({@code mstats} …): the buckets, series, chunks
 *     and points read and skipped; {@code eventsRead} is then the points read
 * @param eventsCollected events its {@code collect} commands wrote into indexes
 * @param cpu the CPU the search's own threads spent ({@link SearchCpu}: its driver thread and the
 *     tasks it ran on the search pool, measured per slice; not the JIT's or the collector's)
 */
public record SearchStats(
    List<String> indexes,
    int buckets,
    int bucketsSkipped,
    int segments,
    int segmentsSkipped,
    long eventsRead,
    long eventsMatched,
    long rows,
    boolean exactIndexQuery,
    Duration elapsed,
    io.quarry.codecs.store.ScanStats.Costs scanCosts,
    Duration fieldExtraction,
    long eventsByRun,
    long pagesByOrdinal,
    long pagesByEntry,
    long pagesInPlace,
    long groupsHandedWhole,
    long blocksSelectedByWords,
    long blocksCountedByCodePairs,
    long eventsCountedByRex,
    long eventsAggregatedByKeyValue,
    List<StageStats.Stage> stages,
    List<String> messages,
    java.util.Optional<io.quarry.codecs.metricstore.MetricScanStats> metricScan,
    long eventsCollected,
    Duration cpu) {

  public SearchStats {
    indexes = List.copyOf(indexes);
    stages = List.copyOf(stages);
    messages = List.copyOf(messages);
  }

  /**
   * The stats of a search of metric indexes ({@code mstats}, {@code mcatalog}, {@code mpreview}):
   * the buckets and points its metric scan read, none of an event scan's counters, its CPU zero
   * until the search adds it ({@link #withCpu}).
   *
   * @param matched the points or rows the metric command handed the pipeline
   */
  static SearchStats ofMetricScan(
      List<String> indexes,
      io.quarry.codecs.metricstore.MetricScanStats scan,
      long matched,
      long rows,
      Duration elapsed,
      List<StageStats.Stage> stages,
      List<String> messages) {
    return new SearchStats(
        indexes,
        (int) scan.buckets(),
        (int) scan.bucketsSkipped(),
        0,
        0,
        scan.points(),
        matched,
        rows,
        true,
        elapsed,
        io.quarry.codecs.store.ScanStats.Costs.NONE,
        Duration.ZERO,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        stages,
        messages,
        java.util.Optional.of(scan),
        0,
        Duration.ZERO);
  }

  /**
   * These stats with {@code appended} (what {@code mstats append=true} commands read) added to the
   * metric scan; these stats when it is null.
   */
  public SearchStats plusMetricScan(io.quarry.codecs.metricstore.MetricScanStats appended) {
    if (appended == null) {
      return this;
    }
    return with(
        java.util.Optional.of(metricScan.map(scan -> scan.plus(appended)).orElse(appended)),
        eventsCollected,
        cpu,
        elapsed);
  }

  /** These stats with {@code collected} events written by the search's {@code collect}s. */
  public SearchStats withEventsCollected(long collected) {
    return collected == eventsCollected ? this : with(metricScan, collected, cpu, elapsed);
  }

  /** These stats with {@code spent}, the CPU the search's threads spent. */
  public SearchStats withCpu(Duration spent) {
    return with(metricScan, eventsCollected, requireNonNull(spent, "spent is null"), elapsed);
  }

  /**
   * These stats with {@code planning} added to their elapsed time: the wall time the search spent
   * planned (its subsearches run then), as its CPU adds the planning's CPU.
   */
  public SearchStats plusElapsed(Duration planning) {
    return planning.isZero()
        ? this
        : with(metricScan, eventsCollected, cpu, elapsed.plus(planning));
  }

  /**
   * The one copy of these stats: every component but the four known only once the search is over
   * (the metric scan with what {@code mstats append=true} read, the events {@code collect} wrote,
   * the CPU, the elapsed time with its planning's) kept as it is. Every wither goes through here,
   * so a component added to the record is copied in one place ({@code SearchStatsTest} checks each
   * wither keeps every other component).
   */
  private SearchStats with(
      java.util.Optional<io.quarry.codecs.metricstore.MetricScanStats> metricScan,
      long eventsCollected,
      Duration cpu,
      Duration elapsed) {
    return new SearchStats(
        indexes,
        buckets,
        bucketsSkipped,
        segments,
        segmentsSkipped,
        eventsRead,
        eventsMatched,
        rows,
        exactIndexQuery,
        elapsed,
        scanCosts,
        fieldExtraction,
        eventsByRun,
        pagesByOrdinal,
        pagesByEntry,
        pagesInPlace,
        groupsHandedWhole,
        blocksSelectedByWords,
        blocksCountedByCodePairs,
        eventsCountedByRex,
        eventsAggregatedByKeyValue,
        stages,
        messages,
        metricScan,
        eventsCollected,
        cpu);
  }

  /** One line for the log (and so for {@code index=_internal}): what the search cost, by stage. */
  public String summary(String query) {
    StringBuilder line =
        new StringBuilder("search completed in ")
            .append(elapsed.toMillis())
            .append(" ms: ")
            .append(query)
            .append(" | indexes=")
            .append(String.join(",", indexes))
            .append(" buckets=")
            .append(buckets)
            .append(" buckets_skipped=")
            .append(bucketsSkipped)
            .append(" segments=")
            .append(segments)
            .append(" segments_skipped=")
            .append(segmentsSkipped)
            .append(" events_read=")
            .append(eventsRead)
            .append(" events_matched=")
            .append(eventsMatched)
            .append(" rows=")
            .append(rows)
            .append(" exact_index_query=")
            .append(exactIndexQuery)
            .append(" index_lookup_ms=")
            .append(scanCosts.indexLookupNanos() / 1_000_000)
            .append(" journal_blocks=")
            .append(scanCosts.journalBlocks())
            .append(" journal_prefix_blocks=")
            .append(scanCosts.prefixBlocks())
            .append(" journal_decode_ms=")
            .append(scanCosts.journalDecodeNanos() / 1_000_000)
            .append(" shared_match_slices=")
            .append(scanCosts.sharedMatchSlices())
            .append(" field_extraction_ms=")
            .append(fieldExtraction.toMillis())
            .append(" events_by_run=")
            .append(eventsByRun)
            .append(" pages_by_ordinal=")
            .append(pagesByOrdinal)
            .append(" pages_by_entry=")
            .append(pagesByEntry)
            .append(" pages_in_place=")
            .append(pagesInPlace)
            .append(" groups_handed_whole=")
            .append(groupsHandedWhole)
            .append(" blocks_selected_by_words=")
            .append(blocksSelectedByWords)
            .append(" blocks_counted_by_code_pairs=")
            .append(blocksCountedByCodePairs)
            .append(" events_counted_by_rex=")
            .append(eventsCountedByRex)
            .append(" events_aggregated_by_key_value=")
            .append(eventsAggregatedByKeyValue)
            .append(" cpu_ms=")
            .append(cpu.toMillis());
    metricScan.ifPresent(
        scan ->
            line.append(" series=")
                .append(scan.series())
                .append(" series_skipped=")
                .append(scan.seriesSkipped())
                .append(" chunks=")
                .append(scan.chunks())
                .append(" chunks_skipped=")
                .append(scan.chunksSkipped())
                .append(" points=")
                .append(scan.points()));
    if (eventsCollected > 0) {
      line.append(" events_collected=").append(eventsCollected);
    }
    for (StageStats.Stage stage : stages) {
      line.append(" | ")
          .append(stage.name())
          .append(": in=")
          .append(stage.rowsIn())
          .append(" out=")
          .append(stage.rowsOut())
          .append(" ms=")
          .append(stage.time().toMillis());
    }
    return line.toString();
  }
}
