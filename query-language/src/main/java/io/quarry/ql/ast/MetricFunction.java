package io.quarry.ql.ast;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The aggregation functions of {@code mstats}, with Splunk's names: the statistics of {@code stats}
 * over a metric's values, and the time-series ones ({@code rate}, {@code rate_avg}, {@code
 * rate_sum}).
 */
public enum MetricFunction {
  COUNT("count"),
  SUM("sum"),
  AVG("avg", "mean"),
  MIN("min"),
  MAX("max"),
  RANGE("range"),
  MEDIAN("median"),
  /** {@code perc<N>}, {@code p<N>}, {@code exactperc<N>}, {@code upperperc<N>}: exact. */
  PERCENTILE("perc"),
  VAR("var"),
  VARP("varp"),
  STDEV("stdev"),
  STDEVP("stdevp"),
  EARLIEST("earliest"),
  LATEST("latest"),
  /**
   * The per-second increase of a counter in each time bucket, a drop counted as a reset (the
   * increase after it is the new value); over several series, the sum of their rates.
   */
  RATE("rate"),
  /** The average of the series' rates. */
  RATE_AVG("rate_avg"),
  /** The sum of the series' rates. */
  RATE_SUM("rate_sum");

  private final String functionName;
  private final List<String> aliases;

  MetricFunction(String functionName, String... aliases) {
    this.functionName = functionName;
    this.aliases = List.of(aliases);
  }

  public String functionName() {
    return functionName;
  }

  public static Optional<MetricFunction> byName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return Arrays.stream(values())
        .filter(f -> f.functionName.equals(lower) || f.aliases.contains(lower))
        .findFirst();
  }

  public static List<String> allNames() {
    return Arrays.stream(values()).map(MetricFunction::functionName).toList();
  }

  /** Whether the function reads each series' points in time order, one series at a time. */
  public boolean perSeries() {
    return this == RATE || this == RATE_AVG || this == RATE_SUM;
  }
}
