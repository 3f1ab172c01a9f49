package io.quarry.server.sourcetype;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * The rules of one sourcetype.
 *
 * @param name the sourcetype's name
 * @param timestampFormats formats tried in order on each event's first characters
 * @param extraction a regular expression with named groups, applied to {@code _raw} at search time;
 *     each group that matched becomes a field
 */
public record Sourcetype(
    String name,
    List<TimestampFormat> timestampFormats,
    Optional<Pattern> extraction,
    List<ExtractedField> extractedFields) {

  /** A capturing group of the extraction and the field it fills. */
  public record ExtractedField(int group, String field) {}

  public Sourcetype {
    requireNonNull(name, "name is null");
    timestampFormats = List.copyOf(timestampFormats);
    requireNonNull(extraction, "extraction is null");
    extractedFields = List.copyOf(extractedFields);
  }

  /** A sourcetype whose extraction's named groups become fields (computed once, not per event). */
  public Sourcetype(
      String name, List<TimestampFormat> timestampFormats, Optional<Pattern> extraction) {
    this(name, timestampFormats, extraction, fieldsOf(extraction));
  }

  private static List<ExtractedField> fieldsOf(Optional<Pattern> extraction) {
    return extraction
        .map(
            pattern ->
                pattern.namedGroups().entrySet().stream()
                    .sorted(java.util.Map.Entry.comparingByValue())
                    .map(e -> new ExtractedField(e.getValue(), Sourcetypes.fieldName(e.getKey())))
                    .toList())
        .orElse(List.of());
  }

  /**
   * The search-time fields of an event from this sourcetype's extraction (each with one value), or
   * an empty map when it has none or the event does not match. Access logs take a hand-written fast
   * path; the regex stays the definition.
   */
  public java.util.Map<String, List<Object>> extract(String raw) {
    if (extraction.isEmpty()) {
      return java.util.Map.of();
    }
    Pattern pattern = extraction.get();
    if (pattern == Sourcetypes.ACCESS_LOG) {
      java.util.Map<String, List<Object>> fast = AccessLogParser.parse(raw);
      if (fast != null) {
        return fast;
      }
    }
    return extractWithRegex(raw);
  }

  /** {@link #extract} through the regular expression alone. */
  java.util.Map<String, List<Object>> extractWithRegex(String raw) {
    if (extraction.isEmpty()) {
      return java.util.Map.of();
    }
    java.util.regex.Matcher matcher = extraction.get().matcher(raw);
    if (!matcher.find()) {
      return java.util.Map.of();
    }
    java.util.Map<String, List<Object>> fields = new java.util.LinkedHashMap<>();
    for (ExtractedField field : extractedFields) {
      String value = matcher.group(field.group());
      if (value != null) {
        fields.put(field.field(), List.of(value));
      }
    }
    return fields;
  }

  /** The event's time in epoch microseconds, if one of the formats finds it. */
  public OptionalLong timestamp(String event, Instant now) {
    for (TimestampFormat format : timestampFormats) {
      OptionalLong time = format.find(event, now);
      if (time.isPresent()) {
        return time;
      }
    }
    return OptionalLong.empty();
  }
}
