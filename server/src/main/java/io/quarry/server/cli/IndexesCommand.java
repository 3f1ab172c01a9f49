package io.quarry.server.cli;

import io.quarry.client.IndexSummary;
import io.quarry.client.MetricIndexSummary;
import io.quarry.client.QuarryClient;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code quarry indexes}: buckets, events, time range, size and compression of every index, then
 * every metric index (points, series, chunks, bytes per point); with {@code --verbose}, also where
 * the bytes go (journal, terms, postings, doc values, points; a metric index's series files, chunk
 * files and log) per index, as a share and as bytes per raw byte (per point for a metric index),
 * where each index's deferred compaction stands (bytes waiting for it, fast segments whose natural
 * merges wait for it, running, due without more events, merges done), and what its segments hold:
 * its buckets' layouts, its segments, and its journal bytes per codec as the segments record them
 * ({@link JournalRows}).
 */
@Command(
    name = "indexes",
    mixinStandardHelpOptions = true,
    description =
        "Show every index of a running server: buckets, events, time range, size on disk.")
final class IndexesCommand implements Callable<Integer> {
  @Mixin AdminOptions admin;

  @Option(
      names = {"-v", "--verbose"},
      description = "Also break each index's bytes down by what they hold.")
  boolean verbose;

  /** Below this much raw data the disk/raw ratio is not shown. */
  private static final long MIN_RAW_FOR_RATIO = 1 << 20;

  @Override
  public Integer call() throws Exception {
    try (QuarryClient client = admin.client()) {
      return print(client);
    }
  }

  private int print(QuarryClient client) throws Exception {
    List<String> fields =
        List.of(
            "index",
            "buckets",
            "events",
            "earliest",
            "latest",
            "on disk",
            "raw",
            "disk/raw",
            "quarantined");
    List<Map<String, String>> rows = new ArrayList<>();
    for (IndexSummary index : client.indexes()) {
      Map<String, String> row = new LinkedHashMap<>();
      row.put("index", index.name());
      row.put("buckets", Long.toString(index.buckets()));
      row.put("events", Long.toString(index.events()));
      row.put("earliest", time(index.earliestMicros()));
      row.put("latest", time(index.latestMicros()));
      row.put("on disk", ByteBreakdownRows.megabytes(index.bytesOnDisk()));
      row.put("raw", ByteBreakdownRows.megabytes(index.journalRawBytes()));
      row.put(
          "disk/raw",
          index.journalRawBytes() < MIN_RAW_FOR_RATIO
              ? "-" // fixed per-file costs dominate tiny indexes; a ratio would mislead
              : String.format(
                  Locale.ROOT, "%.1f%%", 100.0 * index.bytesOnDisk() / index.journalRawBytes()));
      row.put("quarantined", Long.toString(index.quarantinedBuckets()));
      rows.add(row);
    }
    Table.print(System.out, fields, rows);
    List<MetricIndexSummary> metricIndexes = client.metricIndexes();
    if (!metricIndexes.isEmpty()) {
      System.out.println();
      Table.print(System.out, MetricIndexRows.FIELDS, MetricIndexRows.summary(metricIndexes));
    }
    if (verbose) {
      System.out.println();
      Table.print(
          System.out, List.of("index", "holds", "bytes", "share", "per raw byte"), kinds(client));
      System.out.println();
      Table.print(
          System.out,
          List.of(
              "index",
              "waiting for compaction",
              "fast segments waiting",
              "compacting",
              "compaction due",
              "compactions done"),
          compaction(client));
      System.out.println();
      List<Map<String, String>> journals = new ArrayList<>();
      for (IndexSummary index : client.indexes()) {
        JournalRows.add(journals, index);
      }
      Table.print(System.out, JournalRows.FIELDS, journals);
      if (!metricIndexes.isEmpty()) {
        System.out.println();
        Table.print(
            System.out,
            List.of("index", "holds", "bytes", "share", "per point"),
            MetricIndexRows.kinds(metricIndexes));
      }
    }
    return 0;
  }

  /** One row per index and kind of file, largest first. */
  private static List<Map<String, String>> kinds(QuarryClient client) throws Exception {
    List<Map<String, String>> rows = new ArrayList<>();
    for (IndexSummary index : client.indexes()) {
      long raw = index.journalRawBytes();
      ByteBreakdownRows.add(
          rows,
          index.name(),
          index.bytesByKind(),
          "per raw byte",
          raw < MIN_RAW_FOR_RATIO ? 0 : raw);
    }
    return rows;
  }

  /** One row per index: its deferred compaction's backlog and progress. */
  private static List<Map<String, String>> compaction(QuarryClient client) throws Exception {
    List<Map<String, String>> rows = new ArrayList<>();
    for (IndexSummary index : client.indexes()) {
      Map<String, String> row = new LinkedHashMap<>();
      row.put("index", index.name());
      row.put(
          "waiting for compaction", ByteBreakdownRows.megabytes(index.compactionPendingBytes()));
      row.put("fast segments waiting", Integer.toString(index.compactionWaitingSegments()));
      row.put("compacting", index.compacting() ? "yes" : "no");
      row.put("compaction due", index.compactionDue() ? "yes" : "no");
      row.put("compactions done", Long.toString(index.compactions()));
      rows.add(row);
    }
    return rows;
  }

  private static String time(Long micros) {
    return micros == null ? "" : Instant.ofEpochSecond(0, micros * 1000).toString();
  }
}
