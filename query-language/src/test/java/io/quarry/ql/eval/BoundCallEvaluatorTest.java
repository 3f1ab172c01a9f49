package io.quarry.ql.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.exec.BoundFunction;
import org.junit.jupiter.api.Test;

/**
 * {@link BoundCallEvaluator#apply}: a function throws only where the row-at-a-time evaluation
 * would, so a constant subject over a page of no rows calls it not at all.
 */
class BoundCallEvaluatorTest {
  private static final BoundFunction REFUSES =
      subject -> {
        throw new IllegalArgumentException("refused " + subject);
      };

  @Test
  void aConstantOverNoRowsIsNotComputed() {
    ValueColumn answer = BoundCallEvaluator.apply(REFUSES, new ConstantColumn("x", 0));
    assertThat(answer.size()).isZero();
  }

  @Test
  void aConstantOverRowsIsComputedOnce() {
    int[] calls = new int[1];
    ValueColumn answer =
        BoundCallEvaluator.apply(
            subject -> {
              calls[0]++;
              return subject + "!";
            },
            new ConstantColumn("x", 3));
    assertThat(calls[0]).isEqualTo(1);
    assertThat(answer.size()).isEqualTo(3);
    assertThat(answer.get(2)).isEqualTo("x!");
    assertThatThrownBy(() -> BoundCallEvaluator.apply(REFUSES, new ConstantColumn("x", 1)))
        .hasMessage("refused x");
  }
}
