package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One aggregation of {@code stats}: a function, its field (absent for {@code count}), its output
 * name, and for {@code median} and {@code perc<N>} the percentile (NaN otherwise).
 */
public record Aggregation(
    AggregateFunction function, Optional<String> field, String outputName, double percentile) {
  /** An aggregation that is not a percentile. */
  public Aggregation(AggregateFunction function, Optional<String> field, String outputName) {
    this(function, field, outputName, function == AggregateFunction.MEDIAN ? 50 : Double.NaN);
  }

  public Aggregation {
    requireNonNull(function, "function is null");
    requireNonNull(field, "field is null");
    requireNonNull(outputName, "outputName is null");
    if (field.isEmpty() && function != AggregateFunction.COUNT) {
      throw new IllegalArgumentException(function.functionName() + " needs a field");
    }
  }
}
