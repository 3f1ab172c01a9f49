package io.quarry.codecs.metricstore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code quarry fsck} for metric indexes (every {@code <data>/indexes/<name>/} with {@code
 * metric-buckets/} or {@code metric-wal/}), offline: each warm bucket read whole ({@link
 * WarmBucket#verify}: series file, chunk file, every chunk and point), each log file read record by
 * record ({@link MetricLogReader}, the reading the server's replay does), nothing changed unless
 * asked to move damaged buckets aside ({@link BucketQuarantine}, as the server does).
 */
public final class MetricFsck {
  private MetricFsck() {}

  /**
   * A warm bucket's verdict.
   *
   * @param problem null when clean
   */
  public record BucketCheck(
      String index,
      String bucket,
      boolean clean,
      String problem,
      long series,
      long chunks,
      long points,
      long bytes) {}

  /**
   * A log file's verdict: clean, ends in a torn write (never acknowledged: cut on start), or
   * damaged at {@code offset}.
   */
  public record LogCheck(
      String index,
      Path file,
      boolean clean,
      boolean tornTail,
      long offset,
      String problem,
      long records,
      long points) {}

  /** The metric indexes' directories under {@code <data>/indexes}, by name. */
  private static List<Path> indexes(Path dataDirectory) throws IOException {
    List<Path> found = new ArrayList<>();
    Path indexes = dataDirectory.resolve("indexes");
    if (!Files.isDirectory(indexes)) {
      return found;
    }
    try (var stream = Files.list(indexes)) {
      stream
          .filter(
              d ->
                  Files.isDirectory(d.resolve("metric-buckets"))
                      || Files.isDirectory(d.resolve("metric-wal")))
          .sorted()
          .forEach(found::add);
    }
    return found;
  }

  /**
   * Checks every warm bucket of every metric index; with {@code repair}, moves the damaged ones to
   * the index's {@code quarantine/} (the server would on open or in a search).
   */
  public static List<BucketCheck> checkBuckets(Path dataDirectory, boolean repair)
      throws IOException {
    List<BucketCheck> checks = new ArrayList<>();
    for (Path index : indexes(dataDirectory)) {
      String name = index.getFileName().toString();
      BucketQuarantine quarantine = new BucketQuarantine(name, index.resolve("quarantine"));
      for (Path bucket : MetricBucketFormat.list(index.resolve("metric-buckets"))) {
        long bytes =
            MetricBucketFormat.bytesByKind(bucket).values().stream().mapToLong(b -> b).sum();
        try {
          WarmBucket opened = WarmBucket.open(bucket);
          long points = opened.verify();
          checks.add(
              new BucketCheck(
                  name,
                  bucket.getFileName().toString(),
                  true,
                  null,
                  opened.seriesCount(),
                  opened.chunkCount(),
                  points,
                  bytes));
        } catch (IOException | RuntimeException e) {
          checks.add(
              new BucketCheck(
                  name, bucket.getFileName().toString(), false, e.toString(), 0, 0, 0, bytes));
          if (repair) {
            quarantine.move(bucket, e);
          }
        }
      }
    }
    return checks;
  }

  /** Reads every log file of every metric index (changing nothing). */
  public static List<LogCheck> checkLogs(Path dataDirectory) throws IOException {
    List<LogCheck> checks = new ArrayList<>();
    for (Path index : indexes(dataDirectory)) {
      Path wal = index.resolve("metric-wal");
      if (!Files.isDirectory(wal)) {
        continue;
      }
      List<Path> files;
      try (var stream = Files.list(wal)) {
        files =
            stream
                .filter(f -> f.getFileName().toString().matches("mwal-\\d+\\.log"))
                .sorted(
                    java.util.Comparator.comparingLong(
                        f -> Long.parseLong(f.getFileName().toString().replaceAll("\\D", ""))))
                .toList();
      }
      for (int i = 0; i < files.size(); i++) {
        Path file = files.get(i);
        String fileName = file.getFileName().toString();
        long generation = Long.parseLong(fileName.substring(5, fileName.length() - 4));
        MetricLogReader.Scan scan =
            MetricLogReader.read(Files.readAllBytes(file), generation, (g, batch) -> {});
        boolean newest = i == files.size() - 1;
        checks.add(
            new LogCheck(
                index.getFileName().toString(),
                file,
                scan.problem() == null,
                scan.problem() != null && scan.torn() && newest,
                scan.position(),
                scan.problem(),
                scan.records(),
                scan.points()));
      }
    }
    return checks;
  }
}
