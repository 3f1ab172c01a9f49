package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * An event read back from an index, with the name of the index it lives in. Everything but {@code
 * _raw} comes from doc values; {@code _raw} is read from the journal the first time {@link #raw()}
 * is called, so a search that needs only default and index-time fields decodes no journal block.
 * Index-time fields are read from doc values when first asked for, one column at a time. Read what
 * you need during the scan's visit: doc values only move forward, and the segment is released when
 * the scan ends.
 */
public final class StoredEvent {
  /** Reads the {@code _raw} of one document from its segment's journal. */
  @FunctionalInterface
  interface RawLoader {
    String load() throws IOException;
  }

  /** Reads index-time fields of one document from its segment's doc values, on demand. */
  interface FieldLoader {
    /** The fields the segment has. */
    List<String> names();

    /** One field's values, or null; called at most once per field. */
    List<String> field(String name) throws IOException;
  }

  private final String index;
  private final long timeMicros;
  private final String host;
  private final String source;
  private final String sourcetype;
  private Map<String, List<String>> indexedFields; // complete once all are read
  private Map<String, List<String>> readFields; // index-time fields read one by one, on first use
  private FieldLoader fields;
  private RawLoader loader;
  private String raw;

  /** An event whose {@code _raw} is already known. */
  public StoredEvent(String index, Event event) {
    this(
        index,
        event.timeMicros(),
        event.host(),
        event.source(),
        event.sourcetype(),
        event.indexedFields(),
        null);
    this.raw = event.raw();
  }

  StoredEvent(
      String index,
      long timeMicros,
      String host,
      String source,
      String sourcetype,
      Map<String, List<String>> indexedFields,
      RawLoader loader) {
    this.index = requireNonNull(index, "index is null");
    this.timeMicros = timeMicros;
    this.host = requireNonNull(host, "host is null");
    this.source = requireNonNull(source, "source is null");
    this.sourcetype = requireNonNull(sourcetype, "sourcetype is null");
    this.indexedFields = requireNonNull(indexedFields, "indexedFields is null");
    this.loader = loader;
  }

  /** An event whose index-time fields are read from doc values when first asked for. */
  StoredEvent(
      String index,
      long timeMicros,
      String host,
      String source,
      String sourcetype,
      FieldLoader fields,
      RawLoader loader) {
    this(index, timeMicros, host, source, sourcetype, Map.of(), loader);
    this.indexedFields = null;
    this.fields = fields;
  }

  public String index() {
    return index;
  }

  public long timeMicros() {
    return timeMicros;
  }

  public String host() {
    return host;
  }

  public String source() {
    return source;
  }

  public String sourcetype() {
    return sourcetype;
  }

  /** Every index-time field (read-only). */
  public Map<String, List<String>> indexedFields() {
    if (indexedFields == null) {
      Map<String, List<String>> all = new java.util.LinkedHashMap<>();
      for (String name : fields.names()) {
        List<String> values = indexedField(name);
        if (values != null) {
          all.put(name, values);
        }
      }
      indexedFields = java.util.Collections.unmodifiableMap(all);
    }
    return indexedFields;
  }

  /**
   * One index-time field's values, or null when the event has none; reads only that field's doc
   * values (a {@code stats count by clientip} touches no other column).
   */
  public List<String> indexedField(String name) {
    if (indexedFields != null) {
      return indexedFields.get(name);
    }
    if (readFields == null) {
      readFields = new java.util.HashMap<>(4);
    } else if (readFields.containsKey(name)) {
      return readFields.get(name);
    }
    try {
      List<String> values = fields.field(name);
      List<String> copy = values == null ? null : List.copyOf(values);
      readFields.put(name, copy);
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Whether {@code _raw} has been read (for the job's statistics and tests). */
  public boolean rawLoaded() {
    return raw != null;
  }

  /**
   * The event text, read from the journal on first use.
   *
   * @throws UncheckedIOException when the journal cannot be read (a {@link
   *     org.apache.lucene.index.CorruptIndexException} cause quarantines the bucket)
   */
  public String raw() {
    if (raw == null) {
      try {
        raw = loader.load();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      loader = null;
    }
    return raw;
  }

  /** The whole event, {@code _raw} included. */
  public Event event() {
    return new Event(timeMicros, raw(), host, source, sourcetype, indexedFields());
  }
}
