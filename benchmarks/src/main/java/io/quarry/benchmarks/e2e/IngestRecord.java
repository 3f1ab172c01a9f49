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
 * size), JSESSIONID at index time, and the store's settings as the server resolves them ({@link
 * IngestSettings}: the format, the events a block holds, the journal's compression, the layout
 * version of new buckets — term filters or postings) rather than as given, so that a jar of other
 * defaults re-ingests instead of searching a store its own defaults would not have made; and each
 * {@code -Dquarry.storage.<name>} property the harness hands the server ({@code termFilters},
 * {@code ramBufferMB}, {@code journalCompactMergeBytes}, {@code compaction.<key>}, ...), one {@code
 * key=value} line each. The layout line written after an ingest is what the store's buckets hold
 * ({@link StoreShape#layouts}). A run whose record differs ingests afresh and says why ({@code
 * --reuse-index-as-is} keeps the store anyway: one jar on another's store, on purpose).
 */
final class IngestRecord {
  static final String FILE_NAME = "data-ingested.txt";
  static final String PROPERTY_PREFIX = "quarry.storage.";
  static final String LAYOUT = "layout=";

  private final List<String> lines;

  private IngestRecord(List<String> lines) {
    this.lines = List.copyOf(lines);
  }

  /**
   * The record of an ingest of {@code dataset} ({@code rawBytes} long) into a store of {@code
   * settings}, with the {@code quarry.storage.*} properties of {@code system}.
   */
  static IngestRecord of(
      Path dataset,
      long rawBytes,
      IngestSettings settings,
      boolean indexedSessions,
      Properties system) {
    List<String> lines = new ArrayList<>();
    lines.add("dataset=" + dataset.getFileName());
    lines.add("datasetBytes=" + rawBytes);
    lines.add("format=" + settings.format());
    lines.add("blockEvents=" + settings.blockEvents());
    lines.add("journalCompression=" + settings.journalCompression());
    lines.add(LAYOUT + settings.layout());
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

  /**
   * This record with the layout line saying what a store's buckets hold ({@code layouts}, as {@link
   * StoreShape#layouts} lists them): what an ingest made, whatever was asked.
   */
  IngestRecord holding(String layouts) {
    List<String> held = new ArrayList<>();
    for (String line : lines) {
      held.add(line.startsWith(LAYOUT) ? LAYOUT + layouts : line);
    }
    return new IngestRecord(held);
  }

  /** The layout this record names (new buckets', or what a store holds). */
  String layout() {
    for (String line : lines) {
      if (line.startsWith(LAYOUT)) {
        return line.substring(LAYOUT.length());
      }
    }
    throw new IllegalStateException("no layout line in " + lines);
  }

  /** The record's text, as written. */
  String text() {
    return String.join("\n", lines) + "\n";
  }

  /**
   * How the index in {@code workDir} differs from what this record describes: empty when its record
   * is this one; otherwise why it cannot be reused (no record: no finished ingest; or each line of
   * the old record this run does not have, and each of this run's the old one lacks — a record of
   * an earlier harness, which wrote {@code default} for settings not given, differs in those).
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

  /**
   * Whether {@code workDir} records a finished ingest of this record's dataset (name, size and
   * JSESSIONID at index time), whatever its store's settings: what {@code --reuse-index-as-is}
   * needs.
   */
  boolean sameDataset(Path workDir) throws IOException {
    Path file = workDir.resolve(FILE_NAME);
    if (!Files.exists(file)) {
      return false;
    }
    List<String> previous = Files.readString(file).lines().toList();
    return lines.stream()
        .filter(
            line ->
                line.startsWith("dataset=")
                    || line.startsWith("datasetBytes=")
                    || line.startsWith("indexedSessions="))
        .allMatch(previous::contains);
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
