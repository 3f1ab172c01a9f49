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
 *   <li>{@code host}, {@code source}, {@code sourcetype} and every index-time field {@code f}: the
 *       value stored under {@code f} (index-time fields as {@code @f}), and lower-cased under
 *       {@code _kw.f}, indexed, so {@code f=value} is a term lookup.
 * </ul>
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

  /** The indexed, lower-cased keyword field for a default or index-time field. */
  public static String keywordField(String field) {
    return KEYWORD_PREFIX + field;
  }

  /** Keyword values are lower-cased so that field matches are case-insensitive, as in Splunk. */
  public static String keywordValue(String value) {
    return value.toLowerCase(Locale.ROOT);
  }
}
