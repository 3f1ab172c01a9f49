package io.quarry.server.sourcetype;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.IndexedFieldType;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

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
  private final TimestampRule timestamp;
  private final Optional<String> timestampField;
  private final List<IndexExtraction> indexExtractions;
  private final Map<String, IndexedFieldType> fieldTypes;
  private final List<NamedGroups> searchExtractions;
  private final boolean accessLog;
  private final boolean readsPairs; // kvMode auto: key=value pairs and JSON read from the text
  // whether the only index-time extraction is the built-in access-log one (AccessLogParser)
  private final boolean accessLogIndexOnly;

  private Sourcetype(
      String name,
      String description,
      Optional<Pattern> lineBreaker,
      Optional<Pattern> breakOnlyBefore,
      int maxLines,
      int truncate,
      TimestampRule timestamp,
      Optional<String> timestampField,
      List<IndexExtraction> indexExtractions,
      Map<String, IndexedFieldType> fieldTypes,
      List<NamedGroups> searchExtractions,
      boolean readsPairs) {
    this.name = name;
    this.readsPairs = readsPairs;
    this.description = description;
    this.lineBreaker = lineBreaker;
    this.breakOnlyBefore = breakOnlyBefore;
    this.maxLines = maxLines;
    this.truncate = truncate;
    this.timestamp = timestamp;
    this.timestampField = timestampField;
    this.indexExtractions = List.copyOf(indexExtractions);
    this.fieldTypes = Map.copyOf(fieldTypes);
    this.searchExtractions = List.copyOf(searchExtractions);
    this.accessLogIndexOnly =
        indexExtractions.size() == 1
            && indexExtractions.get(0) instanceof IndexExtraction.AccessLog;
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
      fields.addAll(AccessLogParser.Fields.NAMES);
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
   * Whether a search reads {@code key=value} pairs and JSON objects out of this sourcetype's event
   * text for a field it asks for ({@code kvMode: auto}, the default); false for {@code kvMode:
   * none}, whose events have only their index-time fields and the sourcetype's own extractions.
   */
  public boolean readsPairs() {
    return readsPairs;
  }

  /**
   * Compiles settings.
   *
   * @throws IllegalArgumentException naming the setting that is wrong and why
   */
  public static Sourcetype from(String name, SourcetypeSettings settings) {
    requireNonNull(name, "name is null");
    String where = "sourcetype '" + name + "': ";
    try {
      Optional<Pattern> lineBreaker = pattern(settings.lineBreaker(), "lineBreaker");
      if (lineBreaker.isPresent() && lineBreaker.get().matcher("").groupCount() < 1) {
        throw new IllegalArgumentException(
            "lineBreaker needs a capturing group: the text it captures separates events");
      }
      int maxLines = positive(settings.maxLines(), DEFAULT_MAX_LINES, "maxLines");
      int truncate = settings.truncate() == null ? DEFAULT_TRUNCATE : settings.truncate();
      if (truncate < 0) {
        throw new IllegalArgumentException("truncate must be 0 (no limit) or more");
      }
      ZoneId zone = ZoneOffset.UTC;
      if (settings.timezone() != null) {
        try {
          zone = ZoneId.of(settings.timezone());
        } catch (DateTimeException e) {
          throw new IllegalArgumentException(
              "timezone '" + settings.timezone() + "' is not a zone id (e.g. Europe/Berlin, UTC)");
        }
      }
      Optional<StrptimeFormat> format =
          Optional.ofNullable(settings.timeFormat()).map(StrptimeFormat::compile);
      TimestampRule timestamp =
          new TimestampRule(
              pattern(settings.timePrefix(), "timePrefix"),
              format,
              positive(
                  settings.maxTimestampLookahead(),
                  TimestampRule.DEFAULT_LOOKAHEAD,
                  "maxTimestampLookahead"),
              zone);
      List<IndexExtraction> indexExtractions = new ArrayList<>();
      if (settings.indexExtractions() != null) {
        for (SourcetypeSettings.IndexExtractionSettings extraction : settings.indexExtractions()) {
          indexExtractions.add(IndexExtraction.from(extraction));
        }
      }
      Map<String, IndexedFieldType> fieldTypes = new HashMap<>();
      if (settings.fields() != null) {
        settings
            .fields()
            .forEach(
                (field, type) -> {
                  try {
                    fieldTypes.put(field, IndexedFieldType.fromName(type));
                  } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                        "fields." + field + ": " + e.getMessage(), e);
                  }
                });
      }
      List<NamedGroups> searchExtractions = new ArrayList<>();
      if (settings.searchExtractions() != null) {
        for (String regex : settings.searchExtractions()) {
          searchExtractions.add(NamedGroups.compile(regex, "searchExtractions"));
        }
      }
      return new Sourcetype(
          name,
          settings.description() == null ? "" : settings.description(),
          lineBreaker,
          pattern(settings.breakOnlyBefore(), "breakOnlyBefore"),
          maxLines,
          truncate,
          timestamp,
          Optional.ofNullable(settings.timestampField()),
          indexExtractions,
          fieldTypes,
          searchExtractions,
          readsPairs(settings.kvMode()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + e.getMessage(), e);
    }
  }

  /** {@code kvMode}: {@code auto} (or unset) reads pairs, {@code none} does not. */
  private static boolean readsPairs(String kvMode) {
    if (kvMode == null || kvMode.equals("auto")) {
      return true;
    }
    if (kvMode.equals("none")) {
      return false;
    }
    throw new IllegalArgumentException("kvMode must be auto or none, not '" + kvMode + "'");
  }

  private static Optional<Pattern> pattern(String regex, String setting) {
    if (regex == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(Pattern.compile(regex));
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          setting + " is not a valid regular expression: " + e.getDescription() + " in " + regex);
    }
  }

  private static int positive(Integer value, int fallback, String setting) {
    if (value == null) {
      return fallback;
    }
    if (value < 1) {
      throw new IllegalArgumentException(setting + " must be at least 1, not " + value);
    }
    return value;
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
    return timestamp;
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
    if (timestampField.isPresent()) {
      String value = fieldValue(raw, timestampField.get(), indexedFields);
      if (value == null) {
        return OptionalLong.empty();
      }
      OptionalLong epoch = epoch(value);
      return epoch.isPresent() ? epoch : timestamp.find(value, source, now);
    }
    return timestamp.find(raw, source, now);
  }

  /**
   * The event's timestamp as its text writes it ({@link TimestampRule#findLocal}), from the
   * timestamp field when the sourcetype names one; null when the text holds none (an epoch value
   * included: it writes no local time).
   */
  public TimestampRule.LocalStamp localTimestamp(String raw, Instant now) {
    if (timestampField.isPresent()) {
      String value = fieldValue(raw, timestampField.get(), Map.of());
      return value == null || epoch(value).isPresent() ? null : timestamp.findLocal(value, "", now);
    }
    return timestamp.findLocal(raw, "", now);
  }

  /**
   * {@link #timestamp} of an ASCII text given as its bytes, {@code ascii[offset, offset + length)},
   * parsed from the bytes in place ({@link TimestampRule#findAscii}); null when the rule needs the
   * whole text (a timestamp field, a prefix expression).
   */
  public OptionalLong asciiTimestamp(
      byte[] ascii, int offset, int length, String source, Instant now) {
    return timestampField.isPresent()
        ? null
        : timestamp.findAscii(ascii, offset, length, source, now);
  }

  /** The event's time by the timestamp rule alone. */
  public OptionalLong timestamp(String raw, Instant now) {
    return timestamp(raw, "", Map.of(), now);
  }

  private static String fieldValue(
      String raw, String field, Map<String, List<String>> indexedFields) {
    List<String> values = indexedFields.get(field);
    if (values != null && !values.isEmpty()) {
      return values.get(0);
    }
    List<Object> fromJson = JsonFields.flatten(raw).get(field);
    return fromJson == null || fromJson.isEmpty() ? null : String.valueOf(fromJson.get(0));
  }

  /** Epoch seconds, milliseconds or microseconds, told apart by size, as microseconds. */
  private static OptionalLong epoch(String value) {
    double number;
    try {
      number = Double.parseDouble(value);
    } catch (NumberFormatException notNumeric) {
      return OptionalLong.empty();
    }
    if (!Double.isFinite(number) || number <= 0) {
      return OptionalLong.empty();
    }
    if (number < 1e11) {
      return OptionalLong.of(Math.round(number * 1e6));
    }
    if (number < 1e14) {
      return OptionalLong.of(Math.round(number * 1e3));
    }
    return OptionalLong.of(Math.round(number));
  }

  /**
   * {@link #indexFields(String)} of an ASCII text given as its bytes, {@code ascii[offset, offset +
   * length)}, when they are found without the text as a {@code String}: no extraction, or the
   * built-in access-log one alone over a line it knows (read from the bytes); null when the
   * extractions need the text.
   */
  public Map<String, List<String>> asciiIndexFields(byte[] ascii, int offset, int length) {
    if (indexExtractions.isEmpty()) {
      return Map.of();
    }
    return accessLogIndexOnly ? AccessLogParser.indexFields(ascii, offset, length) : null;
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
    // _time, _raw, host, source ... belong to the event itself; an extraction never sets them
    fields.keySet().removeIf(f -> f.isEmpty() || f.startsWith("_") || DEFAULT_FIELDS.contains(f));
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
