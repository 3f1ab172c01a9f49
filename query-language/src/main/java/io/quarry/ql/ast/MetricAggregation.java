package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One aggregation of {@code mstats}: a function over a metric's values. The metric may be a name
 * with {@code *} wildcards ({@code avg(cpu.*)}: one column per metric name that matches, named
 * {@code avg(cpu.user)} …) or {@code _value} (every selected series, the metric names chosen by a
 * {@code metric_name=} filter in the where clause: Splunk's older syntax).
 *
 * @param written the function as written ({@code perc95}, {@code avg}), for column names
 * @param percentile for {@code median} and {@code perc<N>}, else NaN
 * @param as the output name given with {@code AS}, if any (not with a wildcard metric)
 */
public record MetricAggregation(
    MetricFunction function,
    String written,
    String metric,
    double percentile,
    Optional<String> as) {
  /** The pseudo-metric of Splunk's older syntax: the values of whatever series are selected. */
  public static final String VALUE = "_value";

  public MetricAggregation {
    requireNonNull(function, "function is null");
    requireNonNull(written, "written is null");
    requireNonNull(metric, "metric is null");
    requireNonNull(as, "as is null");
    if (as.isPresent() && metric.contains("*")) {
      throw new IllegalArgumentException("a wildcard metric takes no AS name");
    }
  }

  public boolean isWildcard() {
    return metric.contains("*");
  }

  /** The column this aggregation gives for the metric named {@code metricName}. */
  public String outputName(String metricName) {
    return as.orElseGet(() -> written + "(" + metricName + ")");
  }

  /** The aggregation as SPL. */
  public String spl() {
    return written + "(" + metric + ")" + as.map(a -> " AS " + a).orElse("");
  }
}
