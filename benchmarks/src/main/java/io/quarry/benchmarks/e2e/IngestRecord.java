package io.quarry.benchmarks.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What a finished ingest leaves beside the index ({@code <work-dir>/data-ingested.txt}), so that
 * {@code --reuse-index} reuses only an index that holds this run's ingest: the dataset (name and
 * size) and every option that shapes the store's layout — the indexes' format, the block size, the
 * journal's compression, JSESSIONID at index time, and each {@code -Dquarry.storage.<name>}
 * property the harness hands the server ({@code termFilters}, {@code ramBufferMB}, {@code
 * journalCompactMergeBytes}, {@code compaction.<key>}, ...), one {@code key=value} line each. A run
 * whose record differs ingests afresh and says why. Options left to the server's defaults are
 * recorded as such: a jar of other defaults reuses the index (A/B of jars on one index).
 */
final class IngestRecord {
  static final String FILE_NAME = "data-ingested.txt";
  static final String PROPERTY_PREFIX = "quarry.storage.";

  private final List<String> lines;

  private IngestRecord(List<String> lines) {
    this.lines = List.copyOf(lines);
  }

  /**
   * The record of an ingest of {@code dataset} ({@code rawBytes} long) under these options ({@code
   * blockEvents}, {@code journalCompression} null: the server's default), with the {@code
   * quarry.storage.*} properties of {@code system}.
   */
  static IngestRecord of(
      Path dataset,
      long rawBytes,
      String format,
      Integer blockEvents,
      String journalCompression,
      boolean indexedSessions,
      Properties system) {
    List<String> lines = new ArrayList<>();
    lines.add("dataset=" + dataset.getFileName());
    lines.add("datasetBytes=" + rawBytes);
    lines.add("format=" + format);
    lines.add("blockEvents=" + (blockEvents == null ? "default" : blockEvents));
    lines.add(
        "journalCompression=" + (journalCompression == null ? "default" : journalCompression));
    lines.add("indexedSessions=" + indexedSessions);
    TreeMap<String, String> properties = new TreeMap<>();
    for (String name : system.stringPropertyNames()) {
      if (name.startsWith(PROPERTY_PREFIX)) {
        properties.put(name, system.getProperty(name));
      }
    }
    properties.forEach((name, value) -> lines.add("-D" + name + "=" + value));
    return new IngestRecord(lines);
  }

  /** The record's text, as written. */
  String text() {
    return String.join("\n", lines) + "\n";
  }

  /**
   * How the index in {@code workDir} differs from what this record describes: empty when its record
   * is this one; otherwise why it cannot be reused (no record: no finished ingest; or each line of
   * the old record this run does not have, and each of this run's the old one lacks).
   */
  List<String> differences(Path workDir) throws IOException {
    Path file = workDir.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      return List.of("no record of a finished ingest in " + file);
    }
    List<String> previous = Files.readString(file).lines().toList();
    List<String> differences = new ArrayList<>();
    for (String line : previous) {
      if (!lines.contains(line)) {
        differences.add("the index has " + line);
      }
    }
    for (String line : lines) {
      if (!previous.contains(line)) {
        differences.add("this run asks " + line);
      }
    }
    return differences;
  }

  /** Records a finished ingest in {@code workDir}. */
  void write(Path workDir) throws IOException {
    Files.writeString(workDir.resolve(FILE_NAME), text());
  }

  /** Forgets the ingest recorded in {@code workDir} (before its index is replaced). */
  static void forget(Path workDir) throws IOException {
    Files.deleteIfExists(workDir.resolve(FILE_NAME));
  }
}
