package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.block.EventBlockFormat;
import io.quarry.codecs.journal.JournalCompression;
import io.quarry.codecs.journal.JournalStoredFieldsFormat;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Storage settings of one Quarry index.
 *
 * @param journalCompression how new journal blocks are compressed (existing segments keep theirs)
 * @param journalBlockSize uncompressed bytes per journal block
 * @param commitInterval how often buffered events are committed to Lucene segments; until then the
 *     write-ahead log holds them
 * @param maxBucketEvents the hot bucket rolls to warm when it holds this many events
 * @param maxHotAge the hot bucket rolls to warm when it is this old (wall clock)
 * @param maxAge retention: warm buckets whose newest event is older than this are deleted
 * @param maxTotalBytes retention: the oldest warm buckets are deleted while the index is larger
 * @param fieldTypes declared types of index-time fields; undeclared fields are keywords
 * @param format the layout of new buckets (existing buckets keep theirs)
 * @param blockEvents the most events one block document of the block layout holds (new blocks only:
 *     a block records its own count, so buckets written with another size read the same)
 * @param compaction when hot buckets' journals are compacted (deferred unless the JVM properties of
 *     {@link CompactionSettings} say otherwise)
 */
public record IndexOptions(
    JournalCompression journalCompression,
    int journalBlockSize,
    Duration commitInterval,
    long maxBucketEvents,
    Duration maxHotAge,
    Optional<Duration> maxAge,
    Optional<Long> maxTotalBytes,
    Map<String, IndexedFieldType> fieldTypes,
    BucketFormat format,
    int blockEvents,
    CompactionSettings compaction) {

  /** The events per block document unless configured otherwise. */
  public static final int DEFAULT_BLOCK_EVENTS = 1024;

  public static final IndexOptions DEFAULTS =
      new IndexOptions(
          JournalCompression.ZSTD,
          JournalStoredFieldsFormat.DEFAULT_BLOCK_SIZE,
          Duration.ofSeconds(10),
          10_000_000,
          Duration.ofDays(1),
          Optional.empty(),
          Optional.empty(),
          Map.of(),
          BucketFormat.EVENTS,
          DEFAULT_BLOCK_EVENTS,
          CompactionSettings.fromSystemProperties());

  public IndexOptions {
    requireNonNull(journalCompression, "journalCompression is null");
    requireNonNull(commitInterval, "commitInterval is null");
    requireNonNull(maxHotAge, "maxHotAge is null");
    requireNonNull(maxAge, "maxAge is null");
    requireNonNull(maxTotalBytes, "maxTotalBytes is null");
    fieldTypes = Map.copyOf(requireNonNull(fieldTypes, "fieldTypes is null"));
    requireNonNull(format, "format is null");
    requireNonNull(compaction, "compaction is null");
    if (journalBlockSize < 1024) {
      throw new IllegalArgumentException(
          "journalBlockSize must be at least 1024: " + journalBlockSize);
    }
    if (commitInterval.isNegative() || commitInterval.isZero()) {
      throw new IllegalArgumentException("commitInterval must be positive: " + commitInterval);
    }
    if (maxBucketEvents < 1) {
      throw new IllegalArgumentException("maxBucketEvents must be positive: " + maxBucketEvents);
    }
    if (blockEvents < 1 || blockEvents > EventBlockFormat.MAX_EVENTS) {
      throw new IllegalArgumentException(
          "blockEvents must be between 1 and " + EventBlockFormat.MAX_EVENTS + ": " + blockEvents);
    }
  }

  public IndexOptions withJournalCompression(JournalCompression compression) {
    return new IndexOptions(
        compression,
        journalBlockSize,
        commitInterval,
        maxBucketEvents,
        maxHotAge,
        maxAge,
        maxTotalBytes,
        fieldTypes,
        format,
        blockEvents,
        compaction);
  }

  public IndexOptions withCommitInterval(Duration interval) {
    return new IndexOptions(
        journalCompression,
        journalBlockSize,
        interval,
        maxBucketEvents,
        maxHotAge,
        maxAge,
        maxTotalBytes,
        fieldTypes,
        format,
        blockEvents,
        compaction);
  }

  public IndexOptions withBuckets(long events, Duration hotAge) {
    return new IndexOptions(
        journalCompression,
        journalBlockSize,
        commitInterval,
        events,
        hotAge,
        maxAge,
        maxTotalBytes,
        fieldTypes,
        format,
        blockEvents,
        compaction);
  }

  public IndexOptions withRetention(Optional<Duration> age, Optional<Long> totalBytes) {
    return new IndexOptions(
        journalCompression,
        journalBlockSize,
        commitInterval,
        maxBucketEvents,
        maxHotAge,
        age,
        totalBytes,
        fieldTypes,
        format,
        blockEvents,
        compaction);
  }

  public IndexOptions withFieldTypes(Map<String, IndexedFieldType> types) {
    return new IndexOptions(
        journalCompression,
        journalBlockSize,
        commitInterval,
        maxBucketEvents,
        maxHotAge,
        maxAge,
        maxTotalBytes,
        types,
        format,
        blockEvents,
        compaction);
  }

  public IndexOptions withFormat(BucketFormat newFormat) {
    return new IndexOptions(
        journalCompression,
        journalBlockSize,
        commitInterval,
        maxBucketEvents,
        maxHotAge,
        maxAge,
        maxTotalBytes,
        fieldTypes,
        newFormat,
        blockEvents,
        compaction);
  }

  public IndexOptions withBlockEvents(int events) {
    return new IndexOptions(
        journalCompression,
        journalBlockSize,
        commitInterval,
        maxBucketEvents,
        maxHotAge,
        maxAge,
        maxTotalBytes,
        fieldTypes,
        format,
        events,
        compaction);
  }

  public IndexOptions withCompaction(CompactionSettings settings) {
    return new IndexOptions(
        journalCompression,
        journalBlockSize,
        commitInterval,
        maxBucketEvents,
        maxHotAge,
        maxAge,
        maxTotalBytes,
        fieldTypes,
        format,
        blockEvents,
        settings);
  }

  /** The declared type of an index-time field. */
  public IndexedFieldType fieldType(String field) {
    return fieldTypes.getOrDefault(field, IndexedFieldType.KEYWORD);
  }
}
