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
 * @param compaction when hot buckets' journals are compacted ({@link CompactionSettings#DEFAULTS}:
 *     deferred)
 * @param maxWaitingBuckets the most full buckets that wait for their roll (compacting ahead of it,
 *     or waiting for a compaction permit) before the hot bucket, at twice its limits, refuses
 *     events ({@link IndexBusyException}) instead of turning full too
 * @param maxRecordBytes the longest write-ahead log record the index appends, i.e. the most bytes
 *     one batch (one request's events for the index) takes as logged; a larger batch is refused
 *     before anything is written ({@link io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge}). At
 *     most the format's limit, {@link io.quarry.codecs.wal.WriteAheadLog#MAX_RECORD_BYTES}, the
 *     default
 * @param termIndex how new block buckets index their terms ({@link TermIndex}); empty: as {@link
 *     TermIndex#unconfigured} says when the bucket is created (filters unless {@code
 *     -Dquarry.storage.termFilters=false})
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
    CompactionSettings compaction,
    int maxWaitingBuckets,
    long maxRecordBytes,
    Optional<TermIndex> termIndex) {

  /** The events per block document unless configured otherwise. */
  public static final int DEFAULT_BLOCK_EVENTS = 1024;

  /** The full buckets that may wait for their roll unless configured otherwise. */
  public static final int DEFAULT_MAX_WAITING_BUCKETS = 4;

  public static final IndexOptions DEFAULTS =
      new IndexOptions(
          JournalCompression.LZ4_ZSTD,
          JournalStoredFieldsFormat.DEFAULT_BLOCK_SIZE,
          Duration.ofSeconds(10),
          10_000_000,
          Duration.ofDays(1),
          Optional.empty(),
          Optional.empty(),
          Map.of(),
          BucketFormat.EVENTS,
          DEFAULT_BLOCK_EVENTS,
          CompactionSettings.DEFAULTS,
          DEFAULT_MAX_WAITING_BUCKETS,
          io.quarry.codecs.wal.WriteAheadLog.MAX_RECORD_BYTES,
          Optional.empty());

  public IndexOptions {
    requireNonNull(journalCompression, "journalCompression is null");
    requireNonNull(commitInterval, "commitInterval is null");
    requireNonNull(maxHotAge, "maxHotAge is null");
    requireNonNull(maxAge, "maxAge is null");
    requireNonNull(maxTotalBytes, "maxTotalBytes is null");
    fieldTypes = Map.copyOf(requireNonNull(fieldTypes, "fieldTypes is null"));
    requireNonNull(format, "format is null");
    requireNonNull(compaction, "compaction is null");
    requireNonNull(termIndex, "termIndex is null");
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
    if (maxWaitingBuckets < 1) {
      throw new IllegalArgumentException(
          "maxWaitingBuckets must be positive: " + maxWaitingBuckets);
    }
    if (maxRecordBytes < 1
        || maxRecordBytes > io.quarry.codecs.wal.WriteAheadLog.MAX_RECORD_BYTES) {
      throw new IllegalArgumentException(
          "maxRecordBytes must be between 1 and "
              + io.quarry.codecs.wal.WriteAheadLog.MAX_RECORD_BYTES
              + ": "
              + maxRecordBytes);
    }
    if (blockEvents < 1 || blockEvents > EventBlockFormat.MAX_EVENTS) {
      throw new IllegalArgumentException(
          "blockEvents must be between 1 and " + EventBlockFormat.MAX_EVENTS + ": " + blockEvents);
    }
  }

  /** A builder starting from {@link #DEFAULTS}. */
  public static Builder builder() {
    return DEFAULTS.toBuilder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Options like others but for the settings set; {@link #build()} checks them. */
  public static final class Builder {
    private JournalCompression journalCompression;
    private int journalBlockSize;
    private Duration commitInterval;
    private long maxBucketEvents;
    private Duration maxHotAge;
    private Optional<Duration> maxAge;
    private Optional<Long> maxTotalBytes;
    private Map<String, IndexedFieldType> fieldTypes;
    private BucketFormat format;
    private int blockEvents;
    private CompactionSettings compaction;
    private int maxWaitingBuckets;
    private long maxRecordBytes;
    private Optional<TermIndex> termIndex;

    private Builder(IndexOptions from) {
      journalCompression = from.journalCompression;
      journalBlockSize = from.journalBlockSize;
      commitInterval = from.commitInterval;
      maxBucketEvents = from.maxBucketEvents;
      maxHotAge = from.maxHotAge;
      maxAge = from.maxAge;
      maxTotalBytes = from.maxTotalBytes;
      fieldTypes = from.fieldTypes;
      format = from.format;
      blockEvents = from.blockEvents;
      compaction = from.compaction;
      maxWaitingBuckets = from.maxWaitingBuckets;
      maxRecordBytes = from.maxRecordBytes;
      termIndex = from.termIndex;
    }

    public Builder journalCompression(JournalCompression compression) {
      this.journalCompression = compression;
      return this;
    }

    public Builder journalBlockSize(int bytes) {
      this.journalBlockSize = bytes;
      return this;
    }

    public Builder commitInterval(Duration interval) {
      this.commitInterval = interval;
      return this;
    }

    public Builder maxBucketEvents(long events) {
      this.maxBucketEvents = events;
      return this;
    }

    public Builder maxHotAge(Duration age) {
      this.maxHotAge = age;
      return this;
    }

    public Builder maxAge(Optional<Duration> age) {
      this.maxAge = age;
      return this;
    }

    public Builder maxTotalBytes(Optional<Long> bytes) {
      this.maxTotalBytes = bytes;
      return this;
    }

    public Builder fieldTypes(Map<String, IndexedFieldType> types) {
      this.fieldTypes = types;
      return this;
    }

    public Builder format(BucketFormat bucketFormat) {
      this.format = bucketFormat;
      return this;
    }

    public Builder blockEvents(int events) {
      this.blockEvents = events;
      return this;
    }

    public Builder compaction(CompactionSettings settings) {
      this.compaction = settings;
      return this;
    }

    public Builder maxWaitingBuckets(int buckets) {
      this.maxWaitingBuckets = buckets;
      return this;
    }

    public Builder maxRecordBytes(long bytes) {
      this.maxRecordBytes = bytes;
      return this;
    }

    /** The term index of new block buckets (null: the unconfigured one, {@link TermIndex}). */
    public Builder termIndex(TermIndex index) {
      this.termIndex = Optional.ofNullable(index);
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException when a setting is out of its range
     */
    public IndexOptions build() {
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
          compaction,
          maxWaitingBuckets,
          maxRecordBytes,
          termIndex);
    }
  }

  /**
   * The term index a block bucket created now takes: the configured one, else {@link
   * TermIndex#unconfigured}.
   */
  TermIndex termIndexOfNewBuckets() {
    return termIndex.orElseGet(TermIndex::unconfigured);
  }

  /** The declared type of an index-time field. */
  public IndexedFieldType fieldType(String field) {
    return fieldTypes.getOrDefault(field, IndexedFieldType.KEYWORD);
  }
}
