package io.quarry.ql.eval;

import io.quarry.ql.exec.EvalValues;
import io.quarry.ql.exec.Evaluator;
import java.util.List;

/**
 * The operator {@code x LIKE pattern}: null when either side is null, else whether any value of x
 * matches any value of the pattern through {@link Evaluator}'s {@code like()} (its patterns
 * compiled once per search).
 */
final class LikeEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator left;
  private final ExpressionEvaluator right;
  private final Evaluator evaluator;

  LikeEvaluator(ExpressionEvaluator left, ExpressionEvaluator right, Evaluator evaluator) {
    this.left = left;
    this.right = right;
    this.evaluator = evaluator;
  }

  @Override
  public boolean total() {
    return left.total() && right.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
    ValueColumn a = left.eval(frame);
    ValueColumn b = right.eval(frame);
    int size = frame.size();
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      if (a.kind(p) == ValueColumn.NULL || b.kind(p) == ValueColumn.NULL) {
        out.setNull(p);
      } else {
        out.setBoolean(
            p,
            EvalValues.anyMatch(
                a.get(p),
                b.get(p),
                (x, y) ->
                    Boolean.TRUE.equals(
                        evaluator.apply("like", List.of(EvalValues.text(x), EvalValues.text(y))))));
      }
    }
    return out;
  }
}
