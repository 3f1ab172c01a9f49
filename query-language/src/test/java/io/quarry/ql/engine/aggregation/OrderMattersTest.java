package io.quarry.ql.engine.aggregation;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupingFunction#orderMatters}: every function class {@link GroupingFunction#of} makes
 * declares it itself, and exactly those whose answer depends on the order values came in ({@code
 * list}; {@code first}, {@code last}, {@code earliest}, {@code latest} and their {@code _time}s,
 * and {@code rate}: among values of one time, the first seen) answer true.
 */
class OrderMattersTest {
  private static final Set<AggregateFunction> ORDERED =
      EnumSet.of(
          AggregateFunction.LIST,
          AggregateFunction.FIRST,
          AggregateFunction.LAST,
          AggregateFunction.EARLIEST,
          AggregateFunction.LATEST,
          AggregateFunction.EARLIEST_TIME,
          AggregateFunction.LATEST_TIME,
          AggregateFunction.RATE);

  private static GroupingFunction of(AggregateFunction function) {
    Optional<String> field =
        function == AggregateFunction.COUNT ? Optional.empty() : Optional.of("x");
    double percentile = function == AggregateFunction.PERCENTILE ? 95 : Double.NaN;
    return GroupingFunction.of(
        new Aggregation(function, field, function.functionName(), percentile));
  }

  @Test
  void everyFunctionClassDeclaresIt() throws NoSuchMethodException {
    Set<Class<?>> classes = new HashSet<>();
    for (AggregateFunction function : AggregateFunction.values()) {
      classes.add(of(function).getClass());
    }
    assertThat(classes)
        .containsExactlyInAnyOrder(
            CountFunction.class,
            NumericFunction.class,
            DistinctFunction.class,
            SketchFunction.class,
            VarianceFunction.class,
            PercentileFunction.class,
            ModeFunction.class,
            ListFunction.class,
            TimeOrderedFunction.class,
            RateFunction.class);
    for (Class<?> type : classes) {
      assertThat(type.getDeclaredMethod("orderMatters").getDeclaringClass()).isEqualTo(type);
    }
  }

  @Test
  void listTimeOrderedAndRateAnswerTrue() {
    assertThat(of(AggregateFunction.LIST)).isInstanceOf(ListFunction.class);
    assertThat(of(AggregateFunction.FIRST)).isInstanceOf(TimeOrderedFunction.class);
    assertThat(of(AggregateFunction.RATE)).isInstanceOf(RateFunction.class);
    for (AggregateFunction function : AggregateFunction.values()) {
      assertThat(of(function).orderMatters())
          .as(function.functionName())
          .isEqualTo(ORDERED.contains(function));
    }
  }

  @Test
  void anOperatorOrdersItsMergesWhenOneOfItsFunctionsDoes() {
    io.quarry.ql.exec.MemoryTracker memory = io.quarry.ql.exec.MemoryTracker.unbounded("stats");
    assertThat(operator(memory, AggregateFunction.COUNT, AggregateFunction.MODE).orderMatters)
        .isFalse();
    assertThat(operator(memory, AggregateFunction.COUNT, AggregateFunction.LIST).orderMatters)
        .isTrue();
    assertThat(operator(memory, AggregateFunction.RATE).orderMatters).isTrue();
  }

  private static HashAggregationOperator operator(
      io.quarry.ql.exec.MemoryTracker memory, AggregateFunction... functions) {
    java.util.List<Aggregation> aggregations = new java.util.ArrayList<>();
    for (AggregateFunction function : functions) {
      aggregations.add(
          new Aggregation(
              function,
              function == AggregateFunction.COUNT ? Optional.empty() : Optional.of("x"),
              function.functionName()));
    }
    return new HashAggregationOperator(
        new io.quarry.ql.ast.StatsCommand(
            aggregations, java.util.List.of("host"), io.quarry.ql.parser.Position.START),
        memory,
        100);
  }
}
