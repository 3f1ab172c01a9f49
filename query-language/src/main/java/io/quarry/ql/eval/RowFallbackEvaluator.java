package io.quarry.ql.eval;

import io.quarry.ql.ast.Expression;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageRow;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole subtree evaluated by {@link Evaluator}, one position at a time over a {@link PageRow} —
 * today's page path exactly: for the functions that read their argument expressions themselves
 * ({@code mvfilter}, {@code mvmap}, {@code sigfig}) and for conditionals whose branches may throw
 * or have side effects (evaluated only where {@code Evaluator} would). The fields an earlier
 * assignment of the same {@code eval} set are laid over the page ({@code PageRow}'s assigned
 * values).
 */
final class RowFallbackEvaluator implements ExpressionEvaluator {
  private final Expression expression;
  private final Evaluator evaluator;
  private final List<String> assignedNames;
  private final int[] assignedSlots;
  private final Map<String, Object> assigned = new HashMap<>();
  private final PageRow row;

  /**
   * {@code expression} over a page with the earlier assignments {@code assignedNames} (the slot of
   * {@code assignedNames.get(i)} is {@code assignedSlots[i]}).
   */
  RowFallbackEvaluator(
      Expression expression, Evaluator evaluator, List<String> assignedNames, int[] assignedSlots) {
    this.expression = expression;
    this.evaluator = evaluator;
    this.assignedNames = List.copyOf(assignedNames);
    this.assignedSlots = assignedSlots.clone();
    this.row = new PageRow(assigned, evaluator.rawTermMatcher());
  }

  @Override
  public boolean total() {
    return false;
  }

  @Override
  public ValueColumn eval(Frame frame) {
    int size = frame.size();
    Object[] values = new Object[size];
    for (int p = 0; p < size; p++) {
      assigned.clear();
      for (int i = 0; i < assignedSlots.length; i++) {
        assigned.put(assignedNames.get(i), frame.assigned(assignedSlots[i]).get(p));
      }
      values[p] = evaluator.evaluate(expression, row.at(frame.page(), p));
    }
    return ArrayColumn.of(values, size);
  }
}
