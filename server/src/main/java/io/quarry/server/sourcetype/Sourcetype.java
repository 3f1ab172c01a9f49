package io.quarry.server.sourcetype;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.IndexedFieldType;
import java.time.Instant;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The compiled rules of one sourcetype: event breaking, timestamping, index-time and search-time
 * extraction. Built from {@link SourcetypeSettings} by {@link #from}, which checks every value.
 */
public final class Sourcetype {
  /** Splunk's defaults: at most 256 merged lines and 10,000 bytes per event. */
  public static final int DEFAULT_MAX_LINES = 256;

  public static final int DEFAULT_TRUNCATE = 10_000;

  private static final java.util.Set<String> DEFAULT_FIELDS =
      java.util.Set.of("host", "source", "sourcetype", "index");

  private final String name;
  private final String description;
  private final Optional<Pattern> lineBreaker;
  private final Optional<Pattern> breakOnlyBefore;
  private final int maxLines;
  private final int truncate;
  private final EventTime time;
  private final List<IndexExtraction> indexExtractions;
  private final Map<String, IndexedFieldType> fieldTypes;
  private final List<NamedGroups> searchExtractions;
  private final boolean accessLog;
  private final KvMode kvMode;
  // whether the only index-time extraction is the built-in access-log one (AccessLogParser)
  private final boolean accessLogIndexOnly;
  // the extractions over an ASCII event's bytes, or null when one of them needs the text
  private final AsciiIndexFields asciiIndexFields;

  Sourcetype(
      String name,
      String description,
      Optional<Pattern> lineBreaker,
      Optional<Pattern> breakOnlyBefore,
      int maxLines,
      int truncate,
      EventTime time,
      List<IndexExtraction> indexExtractions,
      Map<String, IndexedFieldType> fieldTypes,
      List<NamedGroups> searchExtractions,
      KvMode kvMode) {
    this.name = name;
    this.kvMode = kvMode;
    this.description = description;
    this.lineBreaker = lineBreaker;
    this.breakOnlyBefore = breakOnlyBefore;
    this.maxLines = maxLines;
    this.truncate = truncate;
    this.time = time;
    this.indexExtractions = List.copyOf(indexExtractions);
    this.fieldTypes = Map.copyOf(fieldTypes);
    this.searchExtractions = List.copyOf(searchExtractions);
    this.accessLogIndexOnly =
        indexExtractions.size() == 1
            && indexExtractions.get(0) instanceof IndexExtraction.AccessLog;
    this.asciiIndexFields = AsciiIndexFields.of(this.indexExtractions);
    this.accessLog =
        searchExtractions.size() == 1
            && searchExtractions.get(0).pattern().pattern().equals(AccessLogParser.REGEX);
    Set<String> fields = new HashSet<>();
    for (NamedGroups extraction : searchExtractions) {
      for (Map.Entry<Integer, String> group : extraction.fields()) {
        fields.add(group.getValue());
      }
    }
    if (accessLog) {
      fields.addAll(AccessLogFields.NAMES);
    }
    this.searchFields = Set.copyOf(fields);
  }

  /** Every field a search-time extraction of this sourcetype can produce. */
  private final Set<String> searchFields;

  /**
   * Whether the search-time extraction is exactly the built-in access-log one, which {@link
   * AccessLogSpans} can answer field by field.
   */
  public boolean parsesAccessLogs() {
    return accessLog;
  }

  /**
   * Whether {@link #extract} can produce {@code field}: when not, a search asking for it need not
   * run the extraction (a {@code stats by JSESSIONID} over access logs parses no line for it).
   */
  public boolean mayExtract(String field) {
    return searchFields.contains(field);
  }

  /**
   * Whether a search reads this sourcetype's event text as {@code kvMode: auto} (the default) does:
   * plain {@code key=value} pairs and JSON objects, the reading the search's byte paths ({@code
   * KeyValueBytes}) answer; false for every other mode, whose events the full extraction reads as
   * {@link #kvMode} says.
   */
  public boolean readsPlainPairs() {
    return kvMode == KvMode.AUTO;
  }

  /** What a search reads out of the event text ({@code kvMode}). */
  public KvMode kvMode() {
    return kvMode;
  }

  /**
   * Compiles settings.
   *
   * @throws IllegalArgumentException naming the setting that is wrong and why
   */
  public static Sourcetype from(String name, SourcetypeSettings settings) {
    return SourcetypeCompiler.compile(requireNonNull(name, "name is null"), settings);
  }

  public String name() {
    return name;
  }

  public String description() {
    return description;
  }

  /** The expression whose first group separates events, or empty for line ends. */
  public Optional<Pattern> lineBreaker() {
    return lineBreaker;
  }

  /** When present, lines are merged and a new event starts only at a line this is found in. */
  public Optional<Pattern> breakOnlyBefore() {
    return breakOnlyBefore;
  }

  public int maxLines() {
    return maxLines;
  }

  /** The most UTF-8 bytes of an event; 0 for no limit. */
  public int truncate() {
    return truncate;
  }

  public TimestampRule timestampRule() {
    return time.rule();
  }

  public List<IndexExtraction> indexExtractions() {
    return indexExtractions;
  }

  /** Types this sourcetype declares for its index-time fields. */
  public Map<String, IndexedFieldType> fieldTypes() {
    return fieldTypes;
  }

  /**
   * The event's time in epoch microseconds: from {@code timestampField} when set and the event has
   * it, else by the timestamp rule; empty when not found.
   *
   * @param indexedFields the event's index-time fields, consulted for the timestamp field
   */
  public OptionalLong timestamp(
      String raw, String source, Map<String, List<String>> indexedFields, Instant now) {
    return time.timestamp(raw, source, indexedFields, now);
  }

  /**
   * The event's timestamp as its text writes it ({@link TimestampRule#findLocal}), from the
   * timestamp field when the sourcetype names one; null when the text holds none (an epoch value
   * included: it writes no local time).
   */
  public TimestampRule.LocalStamp localTimestamp(String raw, Instant now) {
    return time.localTimestamp(raw, now);
  }

  /**
   * {@link #timestamp} of an ASCII text given as its bytes, {@code ascii[offset, offset + length)},
   * parsed from the bytes in place ({@link TimestampRule#findAscii}); null when the rule needs the
   * whole text (a timestamp field, a prefix expression). Each call parses (no timestamp is
   * remembered without a caller's {@link ParseScratch}).
   */
  public OptionalLong asciiTimestamp(
      byte[] ascii, int offset, int length, String source, Instant now) {
    return time.asciiTimestamp(ascii, offset, length, source, now, null);
  }

  /** {@link #asciiTimestamp(byte[], int, int, String, Instant)} with the caller's scratch. */
  public OptionalLong asciiTimestamp(
      byte[] ascii, int offset, int length, String source, Instant now, ParseScratch scratch) {
    return time.asciiTimestamp(ascii, offset, length, source, now, scratch);
  }

  /** The event's time by the timestamp rule alone. */
  public OptionalLong timestamp(String raw, Instant now) {
    return timestamp(raw, "", Map.of(), now);
  }

  /**
   * {@link #indexFields(String)} of an ASCII text given as its bytes, {@code ascii[offset, offset +
   * length)}, when they are found without the text as a {@code String}: no extraction, or only
   * extractions that run on bytes ({@link AsciiIndexFields}: the built-in access-log one, {@code
   * regex} ones in {@link io.quarry.ql.exec.AsciiRegex}'s subset) and decide this text; null when
   * the extractions need the text.
   */
  public Map<String, List<String>> asciiIndexFields(byte[] ascii, int offset, int length) {
    if (accessLogIndexOnly) {
      return AccessLogParser.indexFields(ascii, offset, length); // its own map, as before
    }
    return asciiIndexFields(ascii, offset, length, null);
  }

  /**
   * {@link #asciiIndexFields(byte[], int, int)} with a thread's scratch held for a run of events
   * (the access-log parser's bounds then looked up once for the run, not per event).
   */
  public Map<String, List<String>> asciiIndexFields(
      byte[] ascii, int offset, int length, ParseScratch scratch) {
    if (indexExtractions.isEmpty()) {
      return Map.of();
    }
    if (accessLogIndexOnly) {
      return scratch == null
          ? AccessLogParser.indexFields(ascii, offset, length)
          : AccessLogParser.indexFields(ascii, offset, length, scratch.accessBounds);
    }
    return asciiIndexFields == null ? null : asciiIndexFields.fields(ascii, offset, length);
  }

  /**
   * Whether an index-time extraction's field {@code field} is kept: {@code _time}, {@code _raw},
   * {@code host}, {@code source} ... belong to the event itself, and an extraction never sets them.
   */
  static boolean keepsIndexField(String field) {
    return !field.isEmpty() && !field.startsWith("_") && !DEFAULT_FIELDS.contains(field);
  }

  /** The index-time fields of an event by this sourcetype's extractions. */
  public Map<String, List<String>> indexFields(String raw) {
    if (indexExtractions.isEmpty()) {
      return Map.of();
    }
    if (accessLogIndexOnly) {
      // the built-in access-log extraction alone: its four fields as the event's map, no map to
      // fill, filter and copy (none is a default field or starts with "_")
      Map<String, List<String>> fast = AccessLogParser.indexFields(raw);
      if (fast != null) {
        return fast;
      }
    }
    Map<String, List<String>> fields = new LinkedHashMap<>();
    for (IndexExtraction extraction : indexExtractions) {
      extraction.extract(raw, fields);
    }
    fields.keySet().removeIf(f -> !keepsIndexField(f));
    return fields;
  }

  /**
   * The search-time fields of an event from this sourcetype's extractions (each with one value), or
   * an empty map when it has none or none matches. Access logs take a hand-written fast path; the
   * regex stays the definition.
   */
  public Map<String, List<Object>> extract(String raw) {
    if (searchExtractions.isEmpty()) {
      return Map.of();
    }
    if (accessLog) {
      Map<String, List<Object>> fast = AccessLogParser.parse(raw);
      if (fast != null) {
        return fast;
      }
    }
    return extractWithRegex(raw);
  }

  /** {@link #extract} through the regular expressions alone. */
  Map<String, List<Object>> extractWithRegex(String raw) {
    Map<String, List<Object>> fields = new LinkedHashMap<>();
    for (NamedGroups extraction : searchExtractions) {
      extraction.extract(raw, (field, value) -> fields.putIfAbsent(field, List.of(value)));
    }
    return fields;
  }

  @Override
  public String toString() {
    return "Sourcetype[" + name + "]";
  }
}
