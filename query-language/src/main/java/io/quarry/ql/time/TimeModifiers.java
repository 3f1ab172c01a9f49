package io.quarry.ql.time;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAdjusters;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves Splunk time modifiers to epoch microseconds: {@code now}, epoch seconds ({@code
 * 1700000000.5}), absolute {@code %m/%d/%Y:%H:%M:%S}, and relative: offsets {@code [+|-]<n><unit>}
 * and snaps {@code @<unit>} chained left to right, such as {@code -24h}, {@code -7d@d}, {@code @w0}
 * (snap to Sunday), {@code -1mon@mon} or {@code -1d@d+8h} (yesterday at 08:00).
 */
public final class TimeModifiers {
  /**
   * One step of a relative modifier: an offset {@code [+|-]<n><unit>} or a snap {@code @<unit>}.
   */
  private static final Pattern STEP = Pattern.compile("([+-])(\\d*)([a-zA-Z]+)|@([a-zA-Z]+)(\\d?)");

  private static final Pattern EPOCH = Pattern.compile("\\d+(\\.\\d+)?");
  private static final DateTimeFormatter ABSOLUTE =
      DateTimeFormatter.ofPattern("MM/dd/yyyy:HH:mm:ss", Locale.ROOT);

  private TimeModifiers() {}

  /**
   * @throws IllegalArgumentException naming what is wrong when the text is not a time modifier
   */
  public static long resolveMicros(String text, Instant now, ZoneId zone) {
    String value = text.trim();
    if (value.isEmpty() || value.equalsIgnoreCase("now")) {
      return toMicros(now);
    }
    if (EPOCH.matcher(value).matches()) {
      return Math.round(Double.parseDouble(value) * 1_000_000d);
    }
    if (Character.isDigit(value.charAt(0))) {
      try {
        return toMicros(LocalDateTime.parse(value, ABSOLUTE).atZone(zone).toInstant());
      } catch (DateTimeException e) {
        throw new IllegalArgumentException(
            "'" + text + "' is not a time: use %m/%d/%Y:%H:%M:%S, epoch seconds or -24h style");
      }
    }
    // steps apply left to right, as Splunk chains them: -1d@d+8h is yesterday 08:00
    ZonedDateTime time = now.atZone(zone);
    Matcher step = STEP.matcher(value);
    int at = 0;
    while (at < value.length()) {
      if (!step.find(at) || step.start() != at) {
        throw new IllegalArgumentException(
            "'"
                + text
                + "' is not a time modifier such as -24h, -7d@d, -1d@d+8h, @w0, now or epoch"
                + " seconds");
      }
      if (step.group(1) != null) {
        long amount = step.group(2).isEmpty() ? 1 : Long.parseLong(step.group(2));
        if (step.group(1).equals("-")) {
          amount = -amount;
        }
        time = plus(time, amount, unit(step.group(3), text));
      } else {
        time = snap(time, step.group(4), step.group(5), text);
      }
      at = step.end();
    }
    return toMicros(time.toInstant());
  }

  private static long toMicros(Instant instant) {
    return Math.addExact(
        Math.multiplyExact(instant.getEpochSecond(), 1_000_000L), instant.getNano() / 1_000L);
  }

  private enum Unit {
    SECOND,
    MINUTE,
    HOUR,
    DAY,
    WEEK,
    MONTH,
    QUARTER,
    YEAR
  }

  private static Unit unit(String name, String text) {
    return switch (name.toLowerCase(Locale.ROOT)) {
      case "s", "sec", "secs", "second", "seconds" -> Unit.SECOND;
      case "m", "min", "mins", "minute", "minutes" -> Unit.MINUTE;
      case "h", "hr", "hrs", "hour", "hours" -> Unit.HOUR;
      case "d", "day", "days" -> Unit.DAY;
      case "w", "week", "weeks" -> Unit.WEEK;
      case "mon", "month", "months" -> Unit.MONTH;
      case "q", "qtr", "qtrs", "quarter", "quarters" -> Unit.QUARTER;
      case "y", "yr", "yrs", "year", "years" -> Unit.YEAR;
      default ->
          throw new IllegalArgumentException(
              "unknown time unit '" + name + "' in '" + text + "' (use s, m, h, d, w, mon, q, y)");
    };
  }

  private static ZonedDateTime plus(ZonedDateTime time, long amount, Unit unit) {
    return switch (unit) {
      case SECOND -> time.plusSeconds(amount);
      case MINUTE -> time.plusMinutes(amount);
      case HOUR -> time.plusHours(amount);
      case DAY -> time.plusDays(amount);
      case WEEK -> time.plusWeeks(amount);
      case MONTH -> time.plusMonths(amount);
      case QUARTER -> time.plusMonths(3 * amount);
      case YEAR -> time.plusYears(amount);
    };
  }

  private static ZonedDateTime snap(ZonedDateTime time, String name, String weekday, String text) {
    if (name.equalsIgnoreCase("w") && !weekday.isEmpty()) {
      int day = Integer.parseInt(weekday) % 7; // 0 and 7 are Sunday
      DayOfWeek target = day == 0 ? DayOfWeek.SUNDAY : DayOfWeek.of(day);
      return time.truncatedTo(ChronoUnit.DAYS).with(TemporalAdjusters.previousOrSame(target));
    }
    if (!weekday.isEmpty()) {
      throw new IllegalArgumentException("only @w takes a day number, in '" + text + "'");
    }
    return switch (unit(name, text)) {
      case SECOND -> time.truncatedTo(ChronoUnit.SECONDS);
      case MINUTE -> time.truncatedTo(ChronoUnit.MINUTES);
      case HOUR -> time.truncatedTo(ChronoUnit.HOURS);
      case DAY -> time.truncatedTo(ChronoUnit.DAYS);
      case WEEK ->
          time.truncatedTo(ChronoUnit.DAYS)
              .with(TemporalAdjusters.previousOrSame(DayOfWeek.SUNDAY));
      case MONTH -> time.truncatedTo(ChronoUnit.DAYS).withDayOfMonth(1);
      case QUARTER ->
          time.truncatedTo(ChronoUnit.DAYS)
              .withDayOfMonth(1)
              .withMonth(((time.getMonthValue() - 1) / 3) * 3 + 1);
      case YEAR -> time.truncatedTo(ChronoUnit.DAYS).withDayOfYear(1);
    };
  }
}
