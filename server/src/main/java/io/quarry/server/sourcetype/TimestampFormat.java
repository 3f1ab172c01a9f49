package io.quarry.server.sourcetype;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One timestamp format: a pattern that finds it in the first characters of an event and a parser
 * for what the pattern captured. Times without a zone are taken as UTC; times without a year
 * (syslog) get the year that puts them closest before "now".
 */
public enum TimestampFormat {
  /**
   * {@code 2026-01-07T00:00:01.123Z}, {@code 2026-01-07 00:00:01,123 +02:00} and close relatives.
   */
  ISO_8601(
      "(\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d{1,9})?(?:Z|[+-]\\d{2}:?\\d{2})?)") {
    @Override
    Instant parse(String text, Instant now) {
      String normalized = text.replace(',', '.').replace(' ', 'T');
      if (normalized.matches(".*[+-]\\d{4}$")) {
        normalized =
            normalized.substring(0, normalized.length() - 2)
                + ":"
                + normalized.substring(normalized.length() - 2);
      }
      if (normalized.endsWith("Z") || normalized.matches(".*[+-]\\d{2}:\\d{2}$")) {
        return OffsetDateTime.parse(normalized).toInstant();
      }
      return LocalDateTime.parse(normalized).toInstant(ZoneOffset.UTC);
    }
  },
  /** Apache access logs: {@code [07/Jan/2026:00:00:01 +0000]}. */
  APACHE_ACCESS("\\[(\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2} [+-]\\d{4})\\]") {
    private final DateTimeFormatter format =
        DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ROOT);

    @Override
    Instant parse(String text, Instant now) {
      return OffsetDateTime.parse(text, format).toInstant();
    }
  },
  /** Apache error logs: {@code [Sun Dec 04 04:47:44 2005]}. */
  APACHE_ERROR(
      "\\[([A-Z][a-z]{2} [A-Z][a-z]{2} \\d{2} \\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)? \\d{4})\\]") {
    private final DateTimeFormatter format =
        new DateTimeFormatterBuilder()
            .appendPattern("EEE MMM dd HH:mm:ss")
            .optionalStart()
            .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
            .optionalEnd()
            .appendPattern(" yyyy")
            .toFormatter(Locale.ROOT);

    @Override
    Instant parse(String text, Instant now) {
      return LocalDateTime.parse(text, format).toInstant(ZoneOffset.UTC);
    }
  },
  /** Syslog (RFC 3164): {@code Jun 14 15:16:01}, {@code Dec 4 04:47:44}. */
  SYSLOG("^([A-Z][a-z]{2} {1,2}\\d{1,2} \\d{2}:\\d{2}:\\d{2})") {
    private final DateTimeFormatter format =
        DateTimeFormatter.ofPattern("MMM d HH:mm:ss", Locale.ROOT);

    @Override
    Instant parse(String text, Instant now) {
      var parsed = format.parse(text.replaceAll(" +", " "));
      MonthDay monthDay = MonthDay.from(parsed);
      int year = now.atZone(ZoneOffset.UTC).getYear();
      LocalDateTime time =
          LocalDateTime.of(
              year,
              monthDay.getMonthValue(),
              monthDay.getDayOfMonth(),
              parsed.get(ChronoField.HOUR_OF_DAY),
              parsed.get(ChronoField.MINUTE_OF_HOUR),
              parsed.get(ChronoField.SECOND_OF_MINUTE));
      Instant instant = time.toInstant(ZoneOffset.UTC);
      // a date more than two days ahead is last year's (logs are read after they are written)
      return instant.isAfter(now.plusSeconds(2 * 86_400))
          ? time.minusYears(1).toInstant(ZoneOffset.UTC)
          : instant;
    }
  },
  /** Epoch seconds with optional fraction at the start of the event: {@code 1700000000.123}. */
  EPOCH("^(\\d{10}(?:\\.\\d{1,6})?)(?!\\d)") {
    @Override
    Instant parse(String text, Instant now) {
      double seconds = Double.parseDouble(text);
      long whole = (long) Math.floor(seconds);
      return Instant.ofEpochSecond(whole, Math.round((seconds - whole) * 1e6) * 1000);
    }
  };

  /** How many characters of an event are searched for a timestamp. */
  public static final int MAX_LOOKAHEAD = 128;

  private final Pattern pattern;

  TimestampFormat(String regex) {
    this.pattern = Pattern.compile(regex);
  }

  abstract Instant parse(String captured, Instant now);

  /** The event time in epoch microseconds, when this format is found in the first characters. */
  public OptionalLong find(String event, Instant now) {
    Matcher matcher = pattern.matcher(event);
    matcher.region(0, Math.min(event.length(), MAX_LOOKAHEAD));
    if (!matcher.find()) {
      return OptionalLong.empty();
    }
    try {
      Instant instant = parse(matcher.group(1), now);
      return OptionalLong.of(instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1_000);
    } catch (DateTimeException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
