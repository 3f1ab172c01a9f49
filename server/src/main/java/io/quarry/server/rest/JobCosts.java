package io.quarry.server.rest;

import io.quarry.ql.exec.StageStats;
import io.quarry.server.search.SearchStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a finished job's search cost, as the job inspector ({@code GET /api/v1/jobs/{id}/inspect})
 * shows it: the indexes, buckets and segments read and skipped, the events read and matched, the
 * CPU its own threads spent ({@code cpuMs}), the scan's costs (index lookup, journal blocks and
 * bytes, decoding, field extraction), a metric search's series and chunks, and every stage's rows
 * and time.
 */
final class JobCosts {
  private JobCosts() {}

  /**
   * The few costs a streamed search's JSON answer ends with ({@code POST /api/v1/search}: {@code
   * "costs"}), named as the inspector's: events read and matched, rows, elapsed and CPU ms.
   */
  static Map<String, Object> brief(SearchStats stats) {
    Map<String, Object> costs = new LinkedHashMap<>();
    costs.put("eventsRead", stats.eventsRead());
    costs.put("eventsMatched", stats.eventsMatched());
    costs.put("rows", stats.rows());
    costs.put("elapsedMs", stats.elapsed().toMillis());
    costs.put("cpuMs", stats.cpu().toNanos() / 1e6);
    return costs;
  }

  /** The {@code costs} object of the inspector's body. */
  static Map<String, Object> of(SearchStats stats) {
    Map<String, Object> costs = new LinkedHashMap<>();
    costs.put("indexes", stats.indexes());
    costs.put("buckets", stats.buckets());
    costs.put("bucketsSkipped", stats.bucketsSkipped());
    costs.put("segments", stats.segments());
    costs.put("segmentsSkipped", stats.segmentsSkipped());
    costs.put("eventsRead", stats.eventsRead());
    costs.put("eventsMatched", stats.eventsMatched());
    costs.put("rows", stats.rows());
    costs.put("exactIndexQuery", stats.exactIndexQuery());
    costs.put("eventsCollected", stats.eventsCollected());
    costs.put("elapsedMs", stats.elapsed().toMillis());
    costs.put("cpuMs", stats.cpu().toNanos() / 1e6);
    Map<String, Object> scan = new LinkedHashMap<>();
    scan.put("indexLookupMs", stats.scanCosts().indexLookupNanos() / 1e6);
    scan.put("journalBlocks", stats.scanCosts().journalBlocks());
    scan.put("journalPrefixBlocks", stats.scanCosts().prefixBlocks());
    scan.put("journalBytes", stats.scanCosts().journalBytes());
    scan.put("journalDecodeMs", stats.scanCosts().journalDecodeNanos() / 1e6);
    scan.put("sharedMatchSlices", stats.scanCosts().sharedMatchSlices());
    scan.put("fieldExtractionMs", stats.fieldExtraction().toNanos() / 1e6);
    scan.put("eventsByRun", stats.eventsByRun());
    scan.put("pagesByOrdinal", stats.pagesByOrdinal());
    scan.put("pagesByEntry", stats.pagesByEntry());
    scan.put("pagesInPlace", stats.pagesInPlace());
    scan.put("groupsHandedWhole", stats.groupsHandedWhole());
    scan.put("blocksSelectedByWords", stats.blocksSelectedByWords());
    scan.put("blocksCountedByCodePairs", stats.blocksCountedByCodePairs());
    scan.put("eventsCountedByRex", stats.eventsCountedByRex());
    scan.put("eventsAggregatedByKeyValue", stats.eventsAggregatedByKeyValue());
    scan.put("keyTablesHandedOnEarly", stats.keyTablesHandedOnEarly());
    costs.put("scan", scan);
    stats
        .metricScan()
        .ifPresent(
            read -> {
              Map<String, Object> metrics = new LinkedHashMap<>();
              metrics.put("series", read.series());
              metrics.put("seriesSkipped", read.seriesSkipped());
              metrics.put("chunks", read.chunks());
              metrics.put("chunksSkipped", read.chunksSkipped());
              metrics.put("points", read.points());
              costs.put("metrics", metrics);
            });
    List<Map<String, Object>> stages = new ArrayList<>();
    for (StageStats.Stage stage : stats.stages()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("command", stage.name());
      one.put("rowsIn", stage.rowsIn());
      one.put("rowsOut", stage.rowsOut());
      one.put("ms", stage.time().toNanos() / 1e6);
      stages.add(one);
    }
    costs.put("stages", stages);
    // deprecated: always empty since every command runs on pages (session 27), kept one
    // release for clients that read it
    costs.put("rowStages", List.of());
    return costs;
  }
}
