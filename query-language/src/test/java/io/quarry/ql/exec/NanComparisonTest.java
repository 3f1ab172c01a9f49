package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.ast.ComparisonOperator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A NaN number is unordered (IEEE 754): against a number only {@code !=} holds. */
class NanComparisonTest {
  private static final Double NAN = Double.NaN;

  @Test
  void evalComparesANanAsUnordered() {
    for (Object other : List.of(5L, 2.5, NAN, Double.POSITIVE_INFINITY, "7")) {
      int c = EvalValues.comparison(NAN, other);
      assertThat(c).as("nan against %s", other).isEqualTo(EvalValues.UNORDERED);
      assertThat(EvalValues.compares("!=", c)).isTrue();
      for (String operator : List.of("=", "<", "<=", ">", ">=")) {
        assertThat(EvalValues.compares(operator, c)).as("nan %s %s", operator, other).isFalse();
        assertThat(EvalValues.compares(operator, EvalValues.comparison(other, NAN))).isFalse();
      }
    }
  }

  @Test
  void evalComparesANanWithTextAsText() {
    // "abc" is no number: the NaN's text nan is compared, as any number's with text
    assertThat(EvalValues.comparison(NAN, "abc")).isPositive();
    assertThat(EvalValues.comparison(NAN, "nan")).isZero();
  }

  @Test
  void minAndMaxKeepATotalOrder() {
    assertThat(EvalValues.compare(NAN, Double.POSITIVE_INFINITY)).isPositive();
    assertThat(EvalValues.compare(NAN, NAN)).isZero();
  }

  @Test
  void searchKeepsANanOnlyForNotEqual() {
    for (ComparisonOperator operator : ComparisonOperator.values()) {
      boolean holds = new SearchValues(operator, "5").holds(List.of(NAN));
      assertThat(holds).as("nan %s 5", operator).isEqualTo(operator == ComparisonOperator.NE);
    }
  }

  @Test
  void searchComparesTheTextNanAsText() {
    // a field's text "nan" is no number (ARCHITECTURE.md, typeof): it orders as text
    assertThat(new SearchValues(ComparisonOperator.GT, "5").holds(List.of("nan"))).isTrue();
    assertThat(new SearchValues(ComparisonOperator.EQ, "nan").holds(List.of(NAN))).isTrue();
  }
}
