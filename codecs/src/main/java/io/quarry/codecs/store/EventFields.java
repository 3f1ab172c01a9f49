package io.quarry.codecs.store;

import java.util.Locale;
import java.util.Set;

/**
 * The Lucene field layout of an event document.
 *
 * <ul>
 *   <li>{@code _seq}: the write-order sequence number, a point.
 *   <li>{@code _time}: epoch microseconds; a point (range queries), doc values (the index sort, the
 *       merge order of scans) and a stored value.
 *   <li>{@code _raw}: the event text, stored.
 *   <li>{@code _tok}: the terms of {@code _raw} from the segmenter, indexed with DOCS-only
 *       postings.
 *   <li>{@code host}, {@code source}, {@code sourcetype}: sorted doc values under their own name
 *       (the value as sent) and a lower-cased term under {@code _kw.<name>}, so {@code
 *       host=value} is one term lookup.
 *   <li>every index-time field {@code f}: a lower-cased term under {@code _kw.f}, and by its
 *       declared {@link IndexedFieldType type}: sorted-set doc values under {@code @k:f}
 *       (keyword), or a point and sorted-numeric doc values under {@code @l:f} (long) or {@code
 *       @d:f} (double, sortable-long encoded). The type is part of the name, so a field whose type
 *       changes in config never conflicts with segments written before.
 * </ul>
 *
 * <p>Buckets written before this layout stored {@code _time}, {@code host}, {@code source},
 * {@code sourcetype} and index-time fields ({@code @f}) as stored fields; readers still accept
 * them.
 */
public final class EventFields {
  public static final String TIME = "_time";
  public static final String RAW = "_raw";
  public static final String TOKENS = "_tok";

  /**
   * The event's sequence number in its index (a point, not stored): increasing in write order, it
   * tells recovery which write-ahead-log records the last commit already holds.
   */
  public static final String SEQUENCE = "_seq";

  public static final String HOST = "host";
  public static final String SOURCE = "source";
  public static final String SOURCETYPE = "sourcetype";
  public static final String INDEX = "index";

  /** Field names every event has, which index-time fields may not reuse. */
  public static final Set<String> DEFAULT_FIELDS =
      Set.of(TIME, RAW, HOST, SOURCE, SOURCETYPE, INDEX, "_indextime", "splunk_server");

  static final String KEYWORD_PREFIX = "_kw.";
  static final String INDEXED_FIELD_PREFIX = "@";

  private EventFields() {}

  /** The doc-values (and, for numbers, points) field of an index-time field of a type. */
  public static String valuesField(String field, IndexedFieldType type) {
    return INDEXED_FIELD_PREFIX + TYPE_CODES.charAt(type.ordinal()) + ':' + field;
  }

  /** The type of a {@link #valuesField} name, or null when the name is not one. */
  static IndexedFieldType valuesFieldType(String name) {
    if (name.length() < 3 || !name.startsWith(INDEXED_FIELD_PREFIX) || name.charAt(2) != ':') {
      return null;
    }
    int code = TYPE_CODES.indexOf(name.charAt(1));
    return code < 0 ? null : IndexedFieldType.values()[code];
  }

  /** One letter per {@link IndexedFieldType}, in declaration order. */
  private static final String TYPE_CODES = "kld";

  /** The indexed, lower-cased keyword field for a default or index-time field. */
  public static String keywordField(String field) {
    return KEYWORD_PREFIX + field;
  }

  /** Keyword values are lower-cased so that field matches are case-insensitive, as in Splunk. */
  public static String keywordValue(String value) {
    return value.toLowerCase(Locale.ROOT);
  }

  /**
   * The term a value gets in its {@link #keywordField}, or null when it gets none (too long for the
   * term index: such values are found through {@code _raw} only).
   */
  public static String keywordTerm(String value) {
    String keyword = keywordValue(value);
    return keyword.length() <= org.apache.lucene.index.IndexWriter.MAX_TERM_LENGTH / 4
        ? keyword
        : null;
  }
}
