package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarry.codecs.store.IndexedFieldType;
import java.util.Objects;

/**
 * Per-index storage overrides, retention (whole buckets are deleted, oldest first) and the types of
 * index-time fields ({@code keyword}, the default, {@code long} or {@code double}); {@code
 * compaction}'s settings given override {@code storage.compaction}'s (null: none given); {@code
 * termIndex} ({@code filters} or {@code postings}) overrides {@code storage.termIndex} for the
 * index's new block buckets.
 */
public record IndexStorage(
    @JsonProperty("journalCompression") String journalCompression,
    @JsonProperty("maxAgeDays") Integer maxAgeDays,
    @JsonProperty("maxTotalBytes") Long maxTotalBytes,
    @JsonProperty("fields") java.util.Map<String, String> fields,
    @JsonProperty("datatype") String datatype,
    @JsonProperty("maxBucketPoints") Long maxBucketPoints,
    @JsonProperty("mergeFactor") Integer mergeFactor,
    @JsonProperty("maxMergedPoints") Long maxMergedPoints,
    @JsonProperty("format") String format,
    @JsonProperty("compaction") Compaction compaction,
    @JsonProperty("termIndex") String termIndex) {
  /** Splunk's {@code datatype = metric} in indexes.conf: the index holds metric data points. */
  public static final String METRIC = "metric";

  /**
   * The layout this index names for its new buckets ({@code blocks} or {@code events}); without
   * one, {@code storage.format}'s ({@link Storage#DEFAULT_FORMAT} unless set).
   *
   * @throws IllegalArgumentException for any other name
   */
  public io.quarry.codecs.store.BucketFormat bucketFormat() {
    return format == null
        ? Storage.DEFAULT_FORMAT
        : io.quarry.codecs.store.BucketFormat.fromName(format);
  }

  public IndexStorage {
    datatype = Objects.requireNonNullElse(datatype, "event");
    StorageSettings.checkDatatype(datatype, maxBucketPoints, mergeFactor, maxMergedPoints);
    fields = fields == null ? java.util.Map.of() : java.util.Map.copyOf(fields);
    StorageSettings.checkIndexStorage(fields, journalCompression, maxAgeDays, maxTotalBytes);
  }

  /** The declared field types; an unknown type name is an error naming the field. */
  public java.util.Map<String, IndexedFieldType> fieldTypes() {
    return StorageSettings.fieldTypes(fields);
  }
}
