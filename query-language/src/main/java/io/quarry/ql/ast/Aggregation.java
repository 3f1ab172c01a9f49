package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * One aggregation of {@code stats}: a function, its field (absent for {@code count}), its output
 * name, for {@code median} and {@code perc<N>} the percentile (NaN otherwise), and for {@code
 * f(eval(<expression>))} the expression whose value the function reads (its field is then the text
 * {@code eval(…)} as written, which the planner sets by an {@code eval} before the command).
 */
public record Aggregation(
    AggregateFunction function,
    Optional<String> field,
    String outputName,
    double percentile,
    Optional<Expression> evaluated) {
  /** An aggregation that is not a percentile. */
  public Aggregation(AggregateFunction function, Optional<String> field, String outputName) {
    this(function, field, outputName, function == AggregateFunction.MEDIAN ? 50 : Double.NaN);
  }

  /** An aggregation of a field. */
  public Aggregation(
      AggregateFunction function, Optional<String> field, String outputName, double percentile) {
    this(function, field, outputName, percentile, Optional.empty());
  }

  public Aggregation {
    requireNonNull(function, "function is null");
    requireNonNull(field, "field is null");
    requireNonNull(outputName, "outputName is null");
    requireNonNull(evaluated, "evaluated is null");
    if (field.isEmpty() && function != AggregateFunction.COUNT) {
      throw new IllegalArgumentException(function.functionName() + " needs a field");
    }
    if (evaluated.isPresent() && field.isEmpty()) {
      throw new IllegalArgumentException("an evaluated aggregation names its eval(…) field");
    }
  }

  /** This aggregation with {@code eval(…)}'s expression. */
  public Aggregation withEvaluated(Expression expression) {
    return new Aggregation(function, field, outputName, percentile, Optional.of(expression));
  }
}
