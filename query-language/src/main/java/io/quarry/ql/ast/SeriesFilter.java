package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.Locale;

/**
 * The {@code where} clause of {@code chart} and {@code timechart} ({@code where <agg> in top5},
 * {@code where max > 10}): which series are kept (the others fold into {@code OTHER} or are
 * dropped). The function is applied to each series' values, one per row of the chart (a bucket or
 * an over-value), and the result ranked ({@code in|notin top|bottom N}) or compared with a
 * threshold. Splunk's default, without a where clause, is {@code where sum in top<limit>}.
 *
 * @param function the aggregation applied to a series' values
 * @param percentile for {@code perc<N>}/{@code median}, the percentile; NaN otherwise
 * @param functionText the function as written ({@code sum}, {@code perc95}), for the SPL text
 * @param comparison how the series' aggregate decides
 * @param operand N of top/bottom N, or the threshold
 */
public record SeriesFilter(
    AggregateFunction function,
    double percentile,
    String functionText,
    Comparison comparison,
    double operand) {
  /** How a series' aggregate decides whether the series is kept. */
  public enum Comparison {
    IN_TOP("in top"),
    IN_BOTTOM("in bottom"),
    NOT_IN_TOP("notin top"),
    NOT_IN_BOTTOM("notin bottom"),
    GREATER(">"),
    LESS("<"),
    GREATER_OR_EQUAL(">="),
    LESS_OR_EQUAL("<=");

    private final String spl;

    Comparison(String spl) {
      this.spl = spl;
    }

    /** The comparison as SPL writes it ({@code in top}, {@code >}). */
    public String spl() {
      return spl;
    }

    /** A ranking ({@code in|notin top|bottom N}) rather than a threshold. */
    public boolean ranks() {
      return ordinal() <= NOT_IN_BOTTOM.ordinal();
    }
  }

  public SeriesFilter {
    requireNonNull(function, "function is null");
    requireNonNull(functionText, "functionText is null");
    requireNonNull(comparison, "comparison is null");
    if (comparison.ranks() && (operand < 0 || operand != Math.rint(operand))) {
      throw new IllegalArgumentException("top/bottom need a whole number: " + operand);
    }
  }

  /** Splunk's default ranking: the {@code limit} series with the largest sums. */
  public static SeriesFilter top(long limit) {
    return new SeriesFilter(
        AggregateFunction.SUM, Double.NaN, "sum", Comparison.IN_TOP, (double) limit);
  }

  /** {@code limit=bottomN}: the {@code limit} series with the smallest sums. */
  public static SeriesFilter bottom(long limit) {
    return new SeriesFilter(
        AggregateFunction.SUM, Double.NaN, "sum", Comparison.IN_BOTTOM, (double) limit);
  }

  /** The clause as SPL, {@code where sum in top5} or {@code where max > 10}. */
  public String spl() {
    String number =
        operand == Math.rint(operand) && Math.abs(operand) < 1e15
            ? Long.toString((long) operand)
            : Double.toString(operand);
    String fn = functionText.toLowerCase(Locale.ROOT);
    return comparison.ranks()
        ? "where " + fn + " " + comparison.spl() + number
        : "where " + fn + " " + comparison.spl() + " " + number;
  }
}
