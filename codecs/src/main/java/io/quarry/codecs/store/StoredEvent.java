package io.quarry.codecs.store;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * An event read back from an index, with the name of the index it lives in. Everything but {@code
 * _raw} comes from doc values (host, source and sourcetype, too, only when asked for); {@code _raw}
 * is read from the journal the first time {@link #raw()} is called, so a search that needs only
 * default and index-time fields decodes no journal block. Index-time fields are read from doc
 * values when first asked for, one column at a time. Read what you need during the scan's visit:
 * doc values only move forward, and the segment is released when the scan ends.
 */
public final class StoredEvent {
  /**
   * Reads a segment's documents on demand, one per scan of the segment (so an event costs no loader
   * objects of its own): index-time fields from doc values, {@code _raw} from the journal.
   */
  interface Loader {
    /** {@code host}, {@code source} or {@code sourcetype} of {@code doc} ("" when it has none). */
    String defaultField(int doc, String name);

    /**
     * The time of {@code doc}, for an event made with {@link StoredEvent#UNKNOWN_TIME} (its loader
     * reads it when first asked for: a block's times are in its payload).
     */
    default long timeOf(int doc) throws IOException {
      throw new IllegalStateException("the loader gave the event its time");
    }

    /** The index-time fields the segment has. */
    List<String> fieldNames();

    /** Whether the segment has index-time field {@code name} at all (no document may have it). */
    boolean hasField(String name);

    /** One index-time field's values of {@code doc}, or null; called at most once per field. */
    List<String> field(int doc, String name) throws IOException;

    /** The {@code _raw} of {@code doc}. */
    String raw(int doc) throws IOException;

    /** {@code doc}'s {@code _raw} as a transient view of the journal's bytes, or null. */
    CharSequence rawView(int doc) throws IOException;

    /**
     * The ordinal of {@code doc}'s one value of keyword field {@code name} among the values of
     * {@link #keywordScope()}, or {@link #NO_ORDINAL}; {@link #field} reads the same document's
     * field afterwards as before.
     */
    default long keywordOrdinal(int doc, String name) throws IOException {
      return NO_ORDINAL;
    }

    /**
     * Whether {@code doc} surely has no index-time value of {@code name} and its text cannot give
     * one by search-time extraction from the text alone (a block's codes of a field some events
     * lack, {@link BlockValueCodes#PARTIAL}, {@link TextMentions}); false when not known.
     */
    default boolean textLacks(int doc, String name) throws IOException {
      return false;
    }

    /** Where the texts of this loader's events lie together ({@link TextRegion}), or null. */
    default TextRegion textRegion() throws IOException {
      return null;
    }

    /** What the ordinals are of (the scan of one segment); null when there are none. */
    default Object keywordScope() {
      return null;
    }

    /** The text of a {@link #keywordOrdinal} of {@code name}. */
    default String keywordText(String name, long ordinal) throws IOException {
      throw new IllegalStateException("no keyword ordinals");
    }
  }

  /** What {@link #keywordOrdinal} answers when it does not give an ordinal. */
  public static final long NO_ORDINAL = -1;

  /** The time an event is made with when its {@link Loader#timeOf} reads it on first use. */
  static final long UNKNOWN_TIME = Long.MIN_VALUE;

  private final String index;
  private long timeMicros; // UNKNOWN_TIME: its loader reads it when first asked for
  private String host; // these three read from doc values when first asked for
  private String source;
  private String sourcetype;
  private Map<String, List<String>> indexedFields; // complete once all are read
  private Map<String, List<String>> readFields; // index-time fields read one by one, on first use
  private final Loader loader; // null when everything is known
  private final int doc;
  private String raw;

  /** An event whose {@code _raw} is already known. */
  public StoredEvent(String index, Event event) {
    this.index = requireNonNull(index, "index is null");
    this.timeMicros = event.timeMicros();
    this.host = requireNonNull(event.host(), "host is null");
    this.source = requireNonNull(event.source(), "source is null");
    this.sourcetype = requireNonNull(event.sourcetype(), "sourcetype is null");
    this.indexedFields = requireNonNull(event.indexedFields(), "indexedFields is null");
    this.raw = event.raw();
    this.loader = null;
    this.doc = -1;
  }

  /** Document {@code doc} of a segment: index-time fields and {@code _raw} read when asked for. */
  StoredEvent(String index, long timeMicros, Loader loader, int doc) {
    this.index = requireNonNull(index, "index is null");
    this.timeMicros = timeMicros;
    this.loader = requireNonNull(loader, "loader is null");
    this.doc = doc;
  }

  public String index() {
    return index;
  }

  public long timeMicros() {
    if (timeMicros == UNKNOWN_TIME && loader != null) {
      try {
        timeMicros = loader.timeOf(doc);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return timeMicros;
  }

  public String host() {
    if (host == null) {
      host = loader.defaultField(doc, EventFields.HOST);
    }
    return host;
  }

  public String source() {
    if (source == null) {
      source = loader.defaultField(doc, EventFields.SOURCE);
    }
    return source;
  }

  public String sourcetype() {
    if (sourcetype == null) {
      sourcetype = loader.defaultField(doc, EventFields.SOURCETYPE);
    }
    return sourcetype;
  }

  /**
   * Whether this event surely has no index-time value of {@code name} and its text cannot give one
   * by key=value or JSON extraction (known without reading the text where its block's codes say so:
   * {@link Loader#textLacks}); a sourcetype's own search-time extraction is the caller's to ask
   * about.
   */
  public boolean textLacks(String name) {
    if (loader == null || indexedFields != null) {
      return false;
    }
    try {
      return loader.textLacks(doc, name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every index-time field (read-only). */
  public Map<String, List<String>> indexedFields() {
    if (indexedFields == null) {
      Map<String, List<String>> all = new java.util.LinkedHashMap<>();
      for (String name : loader.fieldNames()) {
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
      if (!loader.hasField(name)) {
        return null; // most events of a search asking for a search-time field: no map made
      }
      readFields = new java.util.HashMap<>(4);
    } else if (readFields.containsKey(name)) {
      return readFields.get(name);
    }
    try {
      List<String> values = loader.field(doc, name);
      List<String> copy = values == null ? null : List.copyOf(values);
      readFields.put(name, copy);
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * This event's one value of keyword index-time field {@code name} as an ordinal among the
   * segment's values of the field — equal ordinals of two events of the same {@link #keywordScope}
   * are the same value, read with {@link #keywordText} — or {@link #NO_ORDINAL} when the event has
   * none or several, or the segment keeps the field so that it has no ordinal: then {@link
   * #indexedField} reads it, as it can after this in any case.
   */
  public long keywordOrdinal(String name) {
    if (loader == null
        || indexedFields != null
        || readFields != null && readFields.containsKey(name)) {
      return NO_ORDINAL;
    }
    try {
      return loader.keywordOrdinal(doc, name);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What this event's {@link #keywordOrdinal}s are of: the same object for the events of one scan
   * of a segment, null when they have none.
   */
  public Object keywordScope() {
    return loader == null ? null : loader.keywordScope();
  }

  /** The text of {@code ordinal}, a {@link #keywordOrdinal} of {@code name} (in this scope). */
  public String keywordText(String name, long ordinal) {
    try {
      return loader.keywordText(name, ordinal);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Where this event's text lies together with the other events of its block: the same object for
   * all of them, null when there is no such region (the event layout, an event made in memory). An
   * ASCII {@link #rawText} view of the event is a range of the region's bytes.
   */
  public TextRegion textRegion() {
    try {
      return loader == null ? null : loader.textRegion();
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
        raw = loader.raw(doc);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return raw;
  }

  /**
   * The event text as characters, without making a {@code String} when it can: for an ASCII event
   * not read yet, a view of the decoded journal block that is valid only until the next event of
   * the same scan is read (a {@code rex} matches it and copies out what it keeps); otherwise {@link
   * #raw()}.
   */
  public CharSequence rawText() {
    if (raw == null && loader != null) {
      try {
        CharSequence view = loader.rawView(doc);
        if (view != null) {
          return view;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return raw();
  }

  /** The whole event, {@code _raw} included. */
  public Event event() {
    return new Event(timeMicros(), raw(), host(), source(), sourcetype(), indexedFields());
  }
}
