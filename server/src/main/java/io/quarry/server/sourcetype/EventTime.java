package io.quarry.server.sourcetype;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Where a sourcetype's events take their time from: its {@code timestampField} when it names one
 * (an epoch number, or a text the timestamp rule reads), else the timestamp rule over the text.
 */
final class EventTime {
  private final TimestampRule rule;
  private final Optional<String> field;

  EventTime(TimestampRule rule, Optional<String> field) {
    this.rule = rule;
    this.field = field;
  }

  TimestampRule rule() {
    return rule;
  }

  /** See {@link Sourcetype#timestamp(String, String, Map, Instant)}. */
  OptionalLong timestamp(
      String raw, String source, Map<String, List<String>> indexedFields, Instant now) {
    if (field.isPresent()) {
      String value = fieldValue(raw, field.get(), indexedFields);
      if (value == null) {
        return OptionalLong.empty();
      }
      OptionalLong epoch = epoch(value);
      return epoch.isPresent() ? epoch : rule.find(value, source, now);
    }
    return rule.find(raw, source, now);
  }

  /** See {@link Sourcetype#localTimestamp}. */
  TimestampRule.LocalStamp localTimestamp(String raw, Instant now) {
    if (field.isPresent()) {
      String value = fieldValue(raw, field.get(), Map.of());
      return value == null || epoch(value).isPresent() ? null : rule.findLocal(value, "", now);
    }
    return rule.findLocal(raw, "", now);
  }

  /**
   * See {@link Sourcetype#asciiTimestamp}; a null scratch is the thread's own, which remembers no
   * timestamp.
   */
  OptionalLong asciiTimestamp(
      byte[] ascii, int offset, int length, String source, Instant now, ParseScratch scratch) {
    if (field.isPresent()) {
      return null;
    }
    return scratch == null
        ? rule.findAscii(ascii, offset, length, source, now)
        : rule.findAscii(ascii, offset, length, source, now, scratch);
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
}
