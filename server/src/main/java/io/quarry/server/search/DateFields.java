package io.quarry.server.search;

import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.TimestampRule;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Splunk's default datetime fields — {@code date_hour}, {@code date_mday}, {@code date_minute},
 * {@code date_month}, {@code date_second}, {@code date_wday}, {@code date_year}, {@code date_zone}
 * — of an event whose timestamp is written in its text: the time as the text writes it (not moved
 * to UTC or the searcher's zone), the month and weekday as lower-case English names, {@code
 * date_zone} the text's offset from UTC in minutes or {@code local} when it names no zone. An event
 * whose text holds no timestamp (its time came from HEC or the receive time) has none, as in
 * Splunk. Found by the sourcetype's timestamp rule at search time, when a search asks for one.
 */
final class DateFields {
  static final Set<String> NAMES =
      Set.of(
          "date_hour",
          "date_mday",
          "date_minute",
          "date_month",
          "date_second",
          "date_wday",
          "date_year",
          "date_zone");

  private DateFields() {}

  /** Whether {@code field} is one of the default datetime fields. */
  static boolean is(String field) {
    return field.startsWith("date_") && NAMES.contains(field);
  }

  /** The fields of an event, or an empty map when its text holds no timestamp. */
  static Map<String, List<Object>> of(String raw, Sourcetype sourcetype) {
    TimestampRule.LocalStamp stamp = sourcetype.localTimestamp(raw, Instant.now());
    if (stamp == null) {
      return Map.of();
    }
    LocalDateTime time = stamp.time();
    return Map.of(
        "date_hour", List.of(String.valueOf(time.getHour())),
        "date_mday", List.of(String.valueOf(time.getDayOfMonth())),
        "date_minute", List.of(String.valueOf(time.getMinute())),
        "date_month", List.of(time.getMonth().name().toLowerCase(Locale.ROOT)),
        "date_second", List.of(String.valueOf(time.getSecond())),
        "date_wday", List.of(time.getDayOfWeek().name().toLowerCase(Locale.ROOT)),
        "date_year", List.of(String.valueOf(time.getYear())),
        "date_zone",
            List.of(stamp.offsetMinutes() == null ? "local" : stamp.offsetMinutes().toString()));
  }
}
