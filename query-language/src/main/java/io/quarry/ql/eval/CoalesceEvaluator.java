package io.quarry.ql.eval;

import java.util.List;

/**
 * {@code coalesce(a, b, …)}: at each position the first argument's value that is not null. An
 * argument after the first is evaluated only where every one before it is null ({@link Lazily}), as
 * {@code Evaluator} evaluates it.
 */
final class CoalesceEvaluator implements ExpressionEvaluator {
  private final List<ExpressionEvaluator> arguments;

  CoalesceEvaluator(List<ExpressionEvaluator> arguments) {
    this.arguments = List.copyOf(arguments);
  }

  @Override
  public boolean total() {
    return arguments.stream().allMatch(ExpressionEvaluator::total);
  }

  @Override
  public ValueColumn eval(Frame frame) {
    int size = frame.size();
    ArrayColumn out = new ArrayColumn(size);
    boolean[] open = new boolean[size]; // every argument so far null
    java.util.Arrays.fill(open, true);
    for (int i = 0; i < arguments.size(); i++) {
      ValueColumn column =
          i == 0 ? arguments.get(0).eval(frame) : Lazily.evalWhere(arguments.get(i), frame, open);
      for (int p = 0; p < size; p++) {
        if (open[p] && column.kind(p) != ValueColumn.NULL) {
          out.copy(p, column, p);
          open[p] = false;
        }
      }
    }
    return out;
  }
}
