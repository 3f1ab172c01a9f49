package io.quarry.server.config;

import io.quarry.codecs.block.EventBlockFormat;
import io.quarry.codecs.journal.JournalCompression;
import io.quarry.codecs.metricstore.MetricIndexOptions;
import io.quarry.codecs.store.BucketFormat;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.codecs.store.IndexedFieldType;
import io.quarry.codecs.store.TermIndex;
import io.quarry.codecs.wal.WriteAheadLog;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The checks of the {@code storage} section ({@link Storage}, {@link IndexStorage}), and the
 * options of one index it yields: the section's settings under the index's own.
 */
final class StorageSettings {
  /**
   * The longest {@code idleMillis}: a year. A longer one means "never idle" as well, and one near
   * {@code Long.MAX_VALUE} had overflowed the store's nanoseconds (no compaction at all).
   */
  static final long MAX_IDLE_MILLIS = java.time.Duration.ofDays(365).toMillis();

  private StorageSettings() {}

  /** Checks the section's settings once their defaults are in; the message names the setting. */
  static void check(
      String journalCompression,
      String format,
      int commitIntervalSeconds,
      long maxBucketEvents,
      int blockEvents,
      int maxHotBucketAgeHours,
      int maxWaitingBuckets,
      long maxBatchBytes) {
    JournalCompression.fromName(journalCompression);
    try {
      BucketFormat.fromName(format);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("storage.format: " + e.getMessage(), e);
    }
    Bounds.atLeastOne(commitIntervalSeconds, "storage.commitIntervalSeconds");
    Bounds.atLeastOne(maxBucketEvents, "storage.maxBucketEvents");
    if (blockEvents < 1 || blockEvents > EventBlockFormat.MAX_EVENTS) {
      throw new IllegalArgumentException(
          "storage.blockEvents must be between 1 and " + EventBlockFormat.MAX_EVENTS);
    }
    Bounds.atLeastOne(maxHotBucketAgeHours, "storage.maxHotBucketAgeHours");
    Bounds.atLeastOne(maxWaitingBuckets, "storage.maxWaitingBuckets");
    if (maxBatchBytes < Storage.MIN_BATCH_BYTES || maxBatchBytes > WriteAheadLog.MAX_RECORD_BYTES) {
      throw new IllegalArgumentException(
          "storage.maxBatchBytes must be from "
              + Storage.MIN_BATCH_BYTES
              + " to "
              + WriteAheadLog.MAX_RECORD_BYTES
              + " (the write-ahead log's record limit), not "
              + maxBatchBytes);
    }
  }

  /** Checks {@code storage.committerThreads}: 1 to {@link EventStore#MAX_COMMITTER_THREADS}. */
  static void checkCommitterThreads(int committerThreads) {
    if (committerThreads < 1 || committerThreads > EventStore.MAX_COMMITTER_THREADS) {
      throw new IllegalArgumentException(
          "storage.committerThreads must be from 1 to "
              + EventStore.MAX_COMMITTER_THREADS
              + ", not "
              + committerThreads);
    }
  }

  /**
   * The term index named at {@code path} ({@code storage.termIndex}, or an index's), null when none
   * is.
   *
   * @throws IllegalArgumentException naming the setting, the value and the values allowed
   */
  static TermIndex termIndex(String path, String name) {
    if (name == null) {
      return null;
    }
    try {
      return TermIndex.fromName(name);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(path + " " + e.getMessage(), e);
    }
  }

  /** Checks each index's layout and term index: known names, and neither on a metric index. */
  static void checkIndexes(Map<String, IndexStorage> indexes) {
    indexes.forEach(
        (name, index) -> {
          try {
            index.bucketFormat();
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                "storage.indexes." + name + ".format: " + e.getMessage(), e);
          }
          if (index.format() != null && index.datatype().equals(IndexStorage.METRIC)) {
            throw new IllegalArgumentException(
                "storage.indexes." + name + ".format is a setting of event indexes");
          }
          if (index.maxTotalBytes() != null && index.datatype().equals(IndexStorage.METRIC)) {
            // a metric index's retention is by age alone: a size bound would be ignored
            throw new IllegalArgumentException(
                "storage.indexes."
                    + name
                    + ".maxTotalBytes is a setting of event indexes (a metric index keeps its"
                    + " points for maxAgeDays)");
          }
          termIndex("storage.indexes." + name + ".termIndex", index.termIndex());
          if (index.termIndex() != null && index.datatype().equals(IndexStorage.METRIC)) {
            throw new IllegalArgumentException(
                "storage.indexes." + name + ".termIndex is a setting of event indexes");
          }
          if (index.compaction() != null) {
            if (index.datatype().equals(IndexStorage.METRIC)) {
              throw new IllegalArgumentException(
                  "storage.indexes." + name + ".compaction is a setting of event indexes");
            }
            checkCompaction("storage.indexes." + name + ".compaction", index.compaction());
          }
        });
  }

  /**
   * Checks the compaction settings given at {@code path} ({@code storage.compaction}, or an index's
   * {@code storage.indexes.<name>.compaction}, where those not given are null); the message names
   * the setting and the value refused.
   */
  static void checkCompaction(String path, Compaction compaction) {
    String mode = compaction.mode();
    if (mode != null && !mode.equals(Compaction.DEFERRED) && !mode.equals(Compaction.INLINE)) {
      throw new IllegalArgumentException(
          path + ".mode must be deferred or inline, not '" + mode + "'");
    }
    if (compaction.idleMillis() != null
        && (compaction.idleMillis() < 0 || compaction.idleMillis() > MAX_IDLE_MILLIS)) {
      throw new IllegalArgumentException(
          path
              + ".idleMillis must be from 0 to "
              + MAX_IDLE_MILLIS
              + " (a year), not "
              + compaction.idleMillis());
    }
    atLeastOne(compaction.idleMinBytes(), path + ".idleMinBytes");
    atLeastOne(compaction.pendingBytes(), path + ".pendingBytes");
  }

  private static void atLeastOne(Long value, String setting) {
    if (value != null && value < 1) {
      throw new IllegalArgumentException(setting + " must be at least 1, not " + value);
    }
  }

  /** Checks an index's datatype and that only a metric index has the settings of one. */
  static void checkDatatype(
      String datatype, Long maxBucketPoints, Integer mergeFactor, Long maxMergedPoints) {
    if (!datatype.equals("event") && !datatype.equals(IndexStorage.METRIC)) {
      throw new IllegalArgumentException(
          "datatype must be event or metric, not '" + datatype + "'");
    }
    if (maxBucketPoints != null && maxBucketPoints < 1) {
      throw new IllegalArgumentException("maxBucketPoints must be at least 1");
    }
    if (!datatype.equals(IndexStorage.METRIC)
        && (maxBucketPoints != null || mergeFactor != null || maxMergedPoints != null)) {
      throw new IllegalArgumentException(
          "maxBucketPoints, mergeFactor and maxMergedPoints are settings of metric indexes");
    }
    if (maxMergedPoints != null && maxMergedPoints < 1) {
      throw new IllegalArgumentException("maxMergedPoints must be at least 1");
    }
  }

  /** Checks an index's field types, journal compression and retention. */
  static void checkIndexStorage(
      Map<String, String> fields,
      String journalCompression,
      Integer maxAgeDays,
      Long maxTotalBytes) {
    fieldTypes(fields);
    if (journalCompression != null) {
      JournalCompression.fromName(journalCompression);
    }
    if (maxAgeDays != null) {
      Bounds.atLeastOne(maxAgeDays, "maxAgeDays");
    }
    if (maxTotalBytes != null) {
      Bounds.positive(maxTotalBytes, "maxTotalBytes");
    }
  }

  /** The declared field types; an unknown type name is an error naming the field. */
  static Map<String, IndexedFieldType> fieldTypes(Map<String, String> fields) {
    Map<String, IndexedFieldType> types = new HashMap<>();
    fields.forEach(
        (field, type) -> {
          try {
            types.put(field, IndexedFieldType.fromName(type));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field '" + field + "': " + e.getMessage(), e);
          }
        });
    return types;
  }

  /** The options of a metric index ({@code own}: its settings, or null): size, merges, age. */
  static MetricIndexOptions metricOptions(IndexStorage own) {
    MetricIndexOptions options =
        MetricIndexOptions.DEFAULTS.withMaxAge(
            Optional.ofNullable(own == null ? null : own.maxAgeDays()).map(Duration::ofDays));
    if (own == null) {
      return options;
    }
    if (own.maxBucketPoints() != null) {
      options = options.withMaxBucketPoints(own.maxBucketPoints());
    }
    if (own.mergeFactor() != null || own.maxMergedPoints() != null) {
      options =
          options.withMerges(
              Objects.requireNonNullElse(own.mergeFactor(), options.mergeFactor()),
              Objects.requireNonNullElse(own.maxMergedPoints(), options.maxMergedPoints()));
    }
    return options;
  }

  /** See {@link Storage#options(String)}. */
  static IndexOptions options(Storage storage, String index) {
    IndexStorage own =
        storage
            .indexes()
            .getOrDefault(
                index,
                new IndexStorage(null, null, null, null, null, null, null, null, null, null, null));
    String compression =
        own.journalCompression() != null ? own.journalCompression() : storage.journalCompression();
    return IndexOptions.builder()
        .journalCompression(JournalCompression.fromName(compression))
        .commitInterval(Duration.ofSeconds(storage.commitIntervalSeconds()))
        .maxBucketEvents(storage.maxBucketEvents())
        .maxHotAge(Duration.ofHours(storage.maxHotBucketAgeHours()))
        .maxWaitingBuckets(storage.maxWaitingBuckets())
        .maxAge(
            Optional.ofNullable(own.maxAgeDays())
                .or(
                    () ->
                        index.equals(QuarryConfig.INTERNAL_INDEX)
                            ? Optional.of(QuarryConfig.INTERNAL_RETENTION_DAYS)
                            : Optional.empty())
                .map(Duration::ofDays))
        .maxTotalBytes(Optional.ofNullable(own.maxTotalBytes()))
        .fieldTypes(own.fieldTypes())
        .format(own.format() != null ? own.bucketFormat() : BucketFormat.fromName(storage.format()))
        .blockEvents(storage.blockEvents())
        .maxRecordBytes(storage.maxBatchBytes())
        .termIndex(
            own.termIndex() != null
                ? termIndex("storage.indexes." + index + ".termIndex", own.termIndex())
                : termIndex("storage.termIndex", storage.termIndex()))
        .compaction(
            (own.compaction() == null
                    ? storage.compaction()
                    : own.compaction().over(storage.compaction()))
                .settings())
        .build();
  }
}
