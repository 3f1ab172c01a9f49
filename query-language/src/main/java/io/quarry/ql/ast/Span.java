package io.quarry.ql.ast;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;

/**
 * A {@code span=} of {@code bin} and {@code timechart}: a time span ({@code 30s}, {@code 5m},
 * {@code 1h}, {@code 1d}, {@code 1w}, {@code 1mon}) or, without a unit, a numeric width.
 *
 * @param amount how many units
 * @param unit null for a numeric span
 * @param width the numeric width when {@code unit} is null
 */
public record Span(long amount, ChronoUnit unit, double width) {

  /** Parses Splunk's span syntax; empty when the text is not a span. */
  public static Optional<Span> parse(String text) {
    String lower = text.toLowerCase(Locale.ROOT).strip();
    int digits = 0;
    while (digits < lower.length()
        && (Character.isDigit(lower.charAt(digits)) || lower.charAt(digits) == '.')) {
      digits++;
    }
    if (digits == 0) {
      return Optional.empty();
    }
    String unitText = lower.substring(digits);
    try {
      if (unitText.isEmpty()) {
        double width = Double.parseDouble(lower);
        return width > 0 ? Optional.of(new Span(0, null, width)) : Optional.empty();
      }
      long amount = Long.parseLong(lower.substring(0, digits));
      if (amount <= 0) {
        return Optional.empty();
      }
      ChronoUnit unit =
          switch (unitText) {
            case "s", "sec", "secs", "second", "seconds" -> ChronoUnit.SECONDS;
            case "m", "min", "mins", "minute", "minutes" -> ChronoUnit.MINUTES;
            case "h", "hr", "hrs", "hour", "hours" -> ChronoUnit.HOURS;
            case "d", "day", "days" -> ChronoUnit.DAYS;
            case "w", "week", "weeks" -> ChronoUnit.WEEKS;
            case "mon", "month", "months" -> ChronoUnit.MONTHS;
            default -> null;
          };
      return unit == null ? Optional.empty() : Optional.of(new Span(amount, unit, 0));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  public boolean isTime() {
    return unit != null;
  }

  /**
   * A numeric span's bucket {@code index} start, {@code index × width}, as the decimal it stands
   * for ({@code 3 × 0.1} is 0.3, not 0.300…04): {@code bin}'s labels, {@code makecontinuous}'s
   * buckets.
   */
  public double multiple(double index) {
    double product = index * width;
    if (!Double.isFinite(product) || product == Math.rint(product) && width == Math.rint(width)) {
      return product;
    }
    return new BigDecimal(Double.toString(width))
        .multiply(new BigDecimal(Double.toString(index)))
        .doubleValue();
  }

  /**
   * Splunk's automatic time spans in seconds, smallest first: {@code timechart} and {@code bin}
   * choose from these (and a month past the last), which gives its documented defaults (10 s over
   * 15 minutes, a minute over an hour, 5 minutes over 4 hours, 30 minutes over a day, a day over a
   * week) with 100 bins.
   */
  private static final long[] AUTOMATIC_SECONDS = {
    1, 5, 10, 30, 60, 300, 600, 1_800, 3_600, 86_400
  };

  /**
   * The smallest automatic time span of at least {@code minSeconds} whose buckets over {@code
   * [firstMicros, lastMicros]} (aligned as {@link #floor} aligns them) number at most {@code bins};
   * a month when none does.
   */
  public static Span automatic(
      long firstMicros, long lastMicros, int bins, long minSeconds, ZoneId zone) {
    for (long seconds : AUTOMATIC_SECONDS) {
      if (seconds < minSeconds) {
        continue;
      }
      Span span = ofSeconds(seconds);
      long buckets =
          (span.floor(lastMicros, zone) - span.floor(firstMicros, zone)) / span.sizeMicros() + 1;
      if (buckets <= bins) {
        return span;
      }
    }
    return new Span(1, ChronoUnit.MONTHS, 0);
  }

  /**
   * The smallest power of ten of at least {@code minWidth} whose ranges ({@code [k·w, (k+1)·w)})
   * over {@code [low, high]} number at most {@code bins}.
   */
  public static Span automaticWidth(double low, double high, int bins, double minWidth) {
    double range = high - low;
    int exponent =
        range > 0 ? (int) Math.floor(Math.log10(range / bins)) - 1 : 0; // one below: rounding
    while (true) {
      double width = Double.parseDouble("1e" + exponent);
      boolean fits = Math.floor(high / width) - Math.floor(low / width) + 1 <= bins;
      if (width >= minWidth && fits || exponent >= 300) { // a range across 0 needs two at least
        return new Span(0, null, width);
      }
      exponent++;
    }
  }

  /** A fixed time span of {@code seconds}. */
  public static Span ofSeconds(long seconds) {
    return new Span(seconds, ChronoUnit.SECONDS, 0);
  }

  /**
   * The start of the bucket holding {@code micros}: fixed spans align to the epoch in {@code zone}
   * (days start at midnight), weeks start on Sunday, months on the 1st.
   */
  public long floor(long micros, ZoneId zone) {
    if (unit == ChronoUnit.MONTHS) {
      ZonedDateTime time = Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000)).atZone(zone);
      long months = time.getYear() * 12L + time.getMonthValue() - 1;
      long start = Math.floorDiv(months, amount) * amount;
      return ZonedDateTime.of((int) (start / 12), (int) (start % 12) + 1, 1, 0, 0, 0, 0, zone)
              .toEpochSecond()
          * 1_000_000;
    }
    long size = sizeMicros();
    long offset =
        zone.getRules()
                .getOffset(Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000)))
                .getTotalSeconds()
            * 1_000_000L;
    // weeks: the epoch was a Thursday; shift so buckets start on Sunday
    long shift = unit == ChronoUnit.WEEKS ? 4 * 86_400_000_000L : 0;
    return Math.floorDiv(micros + offset + shift, size) * size - offset - shift;
  }

  /** The start of the bucket after the one starting at {@code start}. */
  public long next(long start, ZoneId zone) {
    if (unit == ChronoUnit.MONTHS) {
      return Instant.ofEpochSecond(start / 1_000_000)
              .atZone(zone)
              .plusMonths(amount)
              .toEpochSecond()
          * 1_000_000;
    }
    return start + sizeMicros();
  }

  private long sizeMicros() {
    return amount * unit.getDuration().toNanos() / 1000;
  }
}
