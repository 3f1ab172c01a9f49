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
 * @param paths how much of the scan went by its fast paths ({@link ScanPaths}: block runs,
 *     dictionary ordinals and entries, value codes, fused {@code rex} and key=value counting): the
 *     counters a new path adds to, in one place
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
    ScanPaths paths,
    List<StageStats.Stage> stages,
    List<String> messages,
    java.util.Optional<io.quarry.codecs.metricstore.MetricScanStats> metricScan,
    long eventsCollected,
    Duration cpu) {

  public SearchStats {
    indexes = List.copyOf(indexes);
    requireNonNull(paths, "paths is null");
    stages = List.copyOf(stages);
    messages = List.copyOf(messages);
  }

  /** {@link ScanPaths#eventsByRun}. */
  public long eventsByRun() {
    return paths.eventsByRun();
  }

  /** {@link ScanPaths#pagesByOrdinal}. */
  public long pagesByOrdinal() {
    return paths.pagesByOrdinal();
  }

  /** {@link ScanPaths#pagesByEntry}. */
  public long pagesByEntry() {
    return paths.pagesByEntry();
  }

  /** {@link ScanPaths#pagesInPlace}. */
  public long pagesInPlace() {
    return paths.pagesInPlace();
  }

  /** {@link ScanPaths#groupsHandedWhole}. */
  public long groupsHandedWhole() {
    return paths.groupsHandedWhole();
  }

  /** {@link ScanPaths#blocksSelectedByWords}. */
  public long blocksSelectedByWords() {
    return paths.blocksSelectedByWords();
  }

  /** {@link ScanPaths#blocksCountedByCodePairs}. */
  public long blocksCountedByCodePairs() {
    return paths.blocksCountedByCodePairs();
  }

  /** {@link ScanPaths#eventsCountedByRex}. */
  public long eventsCountedByRex() {
    return paths.eventsCountedByRex();
  }

  /** {@link ScanPaths#eventsAggregatedByKeyValue}. */
  public long eventsAggregatedByKeyValue() {
    return paths.eventsAggregatedByKeyValue();
  }

  /** {@link ScanPaths#keyTablesHandedOnEarly}. */
  public long keyTablesHandedOnEarly() {
    return paths.keyTablesHandedOnEarly();
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
        ScanPaths.NONE,
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
        paths,
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
            .append(paths.eventsByRun())
            .append(" pages_by_ordinal=")
            .append(paths.pagesByOrdinal())
            .append(" pages_by_entry=")
            .append(paths.pagesByEntry())
            .append(" pages_in_place=")
            .append(paths.pagesInPlace())
            .append(" groups_handed_whole=")
            .append(paths.groupsHandedWhole())
            .append(" blocks_selected_by_words=")
            .append(paths.blocksSelectedByWords())
            .append(" blocks_counted_by_code_pairs=")
            .append(paths.blocksCountedByCodePairs())
            .append(" events_counted_by_rex=")
            .append(paths.eventsCountedByRex())
            .append(" events_aggregated_by_key_value=")
            .append(paths.eventsAggregatedByKeyValue())
            .append(" key_tables_handed_on_early=")
            .append(paths.keyTablesHandedOnEarly())
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
