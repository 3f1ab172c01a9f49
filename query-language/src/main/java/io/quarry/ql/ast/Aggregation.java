package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/** One aggregation of {@code stats}: a function, its field (absent for {@code count}), its name. */
public record Aggregation(AggregateFunction function, Optional<String> field, String outputName) {
  public Aggregation {
    requireNonNull(function, "function is null");
    requireNonNull(field, "field is null");
    requireNonNull(outputName, "outputName is null");
    if (field.isEmpty() && function != AggregateFunction.COUNT) {
      throw new IllegalArgumentException(function.functionName() + " needs a field");
    }
  }
}
