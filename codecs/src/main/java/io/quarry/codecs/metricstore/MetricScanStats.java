package io.quarry.codecs.metricstore;

/**
 * What a metric scan read and skipped.
 *
 * @param buckets buckets whose time bounds overlap the range and were read
 * @param bucketsSkipped buckets outside the range, not opened
 * @param series series selected and read (once per bucket)
 * @param seriesSkipped series the postings proposed that the selector's test refused
 * @param chunks chunks decoded
 * @param chunksSkipped chunks of read series outside the range, not decoded
 * @param points points handed to the visitor
 * @param warnings what the search's answer should say: buckets found damaged and quarantined
 */
public record MetricScanStats(
    long buckets,
    long bucketsSkipped,
    long series,
    long seriesSkipped,
    long chunks,
    long chunksSkipped,
    long points,
    java.util.List<String> warnings) {
  public static final MetricScanStats NONE =
      new MetricScanStats(0, 0, 0, 0, 0, 0, 0, java.util.List.of());

  public MetricScanStats {
    warnings = java.util.List.copyOf(warnings);
  }

  public MetricScanStats plus(MetricScanStats other) {
    return new MetricScanStats(
        buckets + other.buckets,
        bucketsSkipped + other.bucketsSkipped,
        series + other.series,
        seriesSkipped + other.seriesSkipped,
        chunks + other.chunks,
        chunksSkipped + other.chunksSkipped,
        points + other.points,
        java.util.stream.Stream.concat(warnings.stream(), other.warnings.stream()).toList());
  }
}
