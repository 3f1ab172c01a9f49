package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarry.codecs.store.IndexOptions;
import java.util.Objects;

/**
 * How indexes are stored: the journal compression for new segments ({@code zstd}, {@code lz4},
 * {@code none}), how often buffered events are committed to segments (the write-ahead log holds
 * them until then), when the hot bucket rolls to warm, the layout of new event buckets ({@code
 * blocks}, the default, or {@code events}), how many events a new block holds at most ({@code
 * blockEvents}), when hot buckets' journals are compacted ({@code compaction}, {@link Compaction}),
 * how many full buckets of an index may wait for their roll before the index refuses events ({@code
 * maxWaitingBuckets}), the most bytes one request's events for one index may take in the
 * write-ahead log ({@code maxBatchBytes}, default and at most 1 GiB, the log format's record limit;
 * a larger batch is refused with 413 before anything of the request is stored), how many threads
 * run every event index's commits, rolls, refreshes and compaction checks ({@code
 * committerThreads}, default {@link io.quarry.codecs.store.EventStore#DEFAULT_COMMITTER_THREADS}),
 * how new block buckets index their terms ({@code termIndex}: {@code filters}, the default, or
 * {@code postings}, {@link io.quarry.codecs.store.TermIndex}; null when not set: then {@code
 * -Dquarry.storage.termFilters} decides, filters unless false), and per-index overrides and
 * retention.
 */
public record Storage(
    @JsonProperty("journalCompression") String journalCompression,
    @JsonProperty("commitIntervalSeconds") Integer commitIntervalSeconds,
    @JsonProperty("maxBucketEvents") Long maxBucketEvents,
    @JsonProperty("maxHotBucketAgeHours") Integer maxHotBucketAgeHours,
    @JsonProperty("format") String format,
    @JsonProperty("indexes") java.util.Map<String, IndexStorage> indexes,
    @JsonProperty("blockEvents") Integer blockEvents,
    @JsonProperty("compaction") Compaction compaction,
    @JsonProperty("maxWaitingBuckets") Integer maxWaitingBuckets,
    @JsonProperty("maxBatchBytes") Long maxBatchBytes,
    @JsonProperty("committerThreads") Integer committerThreads,
    @JsonProperty("termIndex") String termIndex) {
  /** The layout of new event buckets when neither the index nor the storage section names one. */
  public static final io.quarry.codecs.store.BucketFormat DEFAULT_FORMAT =
      io.quarry.codecs.store.BucketFormat.BLOCKS;

  /** The smallest {@code maxBatchBytes}: 4 KiB. */
  public static final long MIN_BATCH_BYTES = 4096;

  public Storage {
    journalCompression =
        Objects.requireNonNullElse(
            journalCompression, io.quarry.codecs.journal.JournalCompression.LZ4_ZSTD.configName());
    format = Objects.requireNonNullElse(format, DEFAULT_FORMAT.configName());
    commitIntervalSeconds = Objects.requireNonNullElse(commitIntervalSeconds, 10);
    maxBucketEvents = Objects.requireNonNullElse(maxBucketEvents, 10_000_000L);
    blockEvents = Objects.requireNonNullElse(blockEvents, IndexOptions.DEFAULT_BLOCK_EVENTS);
    maxHotBucketAgeHours = Objects.requireNonNullElse(maxHotBucketAgeHours, 24);
    maxWaitingBuckets =
        Objects.requireNonNullElse(maxWaitingBuckets, IndexOptions.DEFAULT_MAX_WAITING_BUCKETS);
    maxBatchBytes =
        Objects.requireNonNullElse(
            maxBatchBytes, io.quarry.codecs.wal.WriteAheadLog.MAX_RECORD_BYTES);
    StorageSettings.check(
        journalCompression,
        format,
        commitIntervalSeconds,
        maxBucketEvents,
        blockEvents,
        maxHotBucketAgeHours,
        maxWaitingBuckets,
        maxBatchBytes);
    committerThreads =
        Objects.requireNonNullElse(
            committerThreads, io.quarry.codecs.store.EventStore.DEFAULT_COMMITTER_THREADS);
    StorageSettings.checkCommitterThreads(committerThreads);
    StorageSettings.termIndex("storage.termIndex", termIndex);
    compaction = compaction == null ? Compaction.DEFAULTS : compaction.over(Compaction.DEFAULTS);
    StorageSettings.checkCompaction("storage.compaction", compaction);
    indexes = indexes == null ? java.util.Map.of() : java.util.Map.copyOf(indexes);
    StorageSettings.checkIndexes(indexes);
  }

  /** Whether {@code index} is declared {@code datatype: metric}. */
  public boolean isMetric(String index) {
    IndexStorage own = indexes.get(index);
    return own != null && own.datatype().equals(IndexStorage.METRIC);
  }

  /** The options of a metric index: its bucket size, merges and retention. */
  public io.quarry.codecs.metricstore.MetricIndexOptions metricOptions(String index) {
    return StorageSettings.metricOptions(indexes.get(index));
  }

  /** The storage options of one index. */
  public IndexOptions options(String index) {
    return StorageSettings.options(this, index);
  }
}
