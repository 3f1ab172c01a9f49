package io.quarry.server.cli;

import io.quarry.client.IndexSummary;
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

/** {@code quarry indexes}: buckets, events, time range, size and compression of every index. */
@Command(
    name = "indexes",
    mixinStandardHelpOptions = true,
    description =
        "Show every index of a running server: buckets, events, time range, size on disk.")
final class IndexesCommand implements Callable<Integer> {
  @Mixin AdminOptions admin;

  /** Below this much raw data the disk/raw ratio is not shown. */
  private static final long MIN_RAW_FOR_RATIO = 1 << 20;

  @Override
  public Integer call() throws Exception {
    QuarryClient client = admin.client();
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
      row.put("on disk", megabytes(index.bytesOnDisk()));
      row.put("raw", megabytes(index.journalRawBytes()));
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
    return 0;
  }

  private static String time(Long micros) {
    return micros == null ? "" : Instant.ofEpochSecond(0, micros * 1000).toString();
  }

  private static String megabytes(long bytes) {
    return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
  }
}
