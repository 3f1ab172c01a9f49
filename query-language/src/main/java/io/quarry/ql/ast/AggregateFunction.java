package io.quarry.ql.ast;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The aggregation functions {@code stats} knows, with Splunk's names and aliases. */
public enum AggregateFunction {
  COUNT("count", "c"),
  SUM("sum"),
  AVG("avg", "mean"),
  MIN("min"),
  MAX("max"),
  DISTINCT_COUNT("dc", "distinct_count"),
  /** {@code estdc}: the distinct count estimated by a HyperLogLog sketch (~1.6% error, 4 KiB). */
  ESTIMATED_DISTINCT_COUNT("estdc", "estimated_distinct_count"),
  RANGE("range"),
  VAR("var"),
  VARP("varp"),
  STDEV("stdev"),
  STDEVP("stdevp"),
  MEDIAN("median"),
  /** {@code perc<N>}, {@code p<N>}, {@code exactperc<N>}, {@code upperperc<N>}: exact. */
  PERCENTILE("perc"),
  MODE("mode"),
  VALUES("values"),
  LIST("list"),
  FIRST("first"),
  LAST("last"),
  EARLIEST("earliest"),
  LATEST("latest"),
  /** {@code sumsq}: the sum of the squares of the numeric values. */
  SUMSQ("sumsq"),
  /** {@code earliest_time}: the {@code _time} (epoch seconds) of the earliest value. */
  EARLIEST_TIME("earliest_time"),
  /** {@code latest_time}: the {@code _time} (epoch seconds) of the latest value. */
  LATEST_TIME("latest_time"),
  /**
   * {@code rate}: (latest − earliest value) / (latest_time − earliest_time), for counters; null
   * when the values are not numbers or share one time.
   */
  RATE("rate"),
  /** {@code per_second}: timechart only — a bucket's sum per second of the bucket. */
  PER_SECOND("per_second"),
  /** {@code per_minute}: timechart only — a bucket's sum per minute of the bucket. */
  PER_MINUTE("per_minute"),
  /** {@code per_hour}: timechart only — a bucket's sum per hour of the bucket. */
  PER_HOUR("per_hour"),
  /** {@code per_day}: timechart only — a bucket's sum per day of the bucket. */
  PER_DAY("per_day");

  /**
   * For {@code per_second} … {@code per_day}, the seconds of the unit their sum is divided into (a
   * bucket's sum times this over the bucket's seconds); 0 for every other function.
   */
  public long perUnitSeconds() {
    return switch (this) {
      case PER_SECOND -> 1;
      case PER_MINUTE -> 60;
      case PER_HOUR -> 3_600;
      case PER_DAY -> 86_400;
      default -> 0;
    };
  }

  private final String functionName;
  private final List<String> aliases;

  AggregateFunction(String functionName, String... aliases) {
    this.functionName = functionName;
    this.aliases = List.of(aliases);
  }

  /** The canonical name, used for default output names such as {@code sum(bytes)}. */
  public String functionName() {
    return functionName;
  }

  /**
   * The percentile a name such as {@code perc95}, {@code p99.9}, {@code exactperc50} or {@code
   * upperperc75} asks for, if it is one (0 to 100).
   */
  public static java.util.OptionalDouble percentile(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String prefix : List.of("exactperc", "upperperc", "perc", "p")) {
      if (lower.startsWith(prefix) && lower.length() > prefix.length()) {
        try {
          double percent = Double.parseDouble(lower.substring(prefix.length()));
          if (percent >= 0 && percent <= 100) {
            return java.util.OptionalDouble.of(percent);
          }
        } catch (NumberFormatException notOne) {
          return java.util.OptionalDouble.empty();
        }
      }
    }
    return java.util.OptionalDouble.empty();
  }

  public static Optional<AggregateFunction> byName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(f -> f.functionName.equals(lower) || f.aliases.contains(lower))
        .findFirst();
  }

  public static List<String> allNames() {
    return Arrays.stream(values()).map(AggregateFunction::functionName).toList();
  }
}
