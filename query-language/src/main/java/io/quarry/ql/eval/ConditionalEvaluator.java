package io.quarry.ql.eval;

import java.util.List;

/**
 * {@code if(c, a, b)} and {@code case(c1, v1, c2, v2, …)}: at each position the value of the first
 * branch whose condition is true (a condition that is null or not a boolean is false), {@code if}'s
 * last argument or {@code case}'s null when none is. A condition is evaluated where no earlier one
 * held, a value where its condition is the first to hold ({@link Lazily}: over the whole page when
 * the part is {@link ExpressionEvaluator#total}), as {@code Evaluator} evaluates them.
 */
final class ConditionalEvaluator implements ExpressionEvaluator {
  private final List<ExpressionEvaluator> conditions;
  private final List<ExpressionEvaluator> values;
  private final ExpressionEvaluator otherwise;

  /**
   * {@code values.get(i)} where {@code conditions.get(i)} is the first true one, else {@code
   * otherwise} (null: no value).
   */
  ConditionalEvaluator(
      List<ExpressionEvaluator> conditions,
      List<ExpressionEvaluator> values,
      ExpressionEvaluator otherwise) {
    if (conditions.size() != values.size()) {
      throw new IllegalArgumentException("a value for each condition");
    }
    this.conditions = List.copyOf(conditions);
    this.values = List.copyOf(values);
    this.otherwise = otherwise;
  }

  @Override
  public boolean total() {
    return conditions.stream().allMatch(ExpressionEvaluator::total)
        && values.stream().allMatch(ExpressionEvaluator::total)
        && (otherwise == null || otherwise.total());
  }

  @Override
  public ValueColumn eval(Frame frame) {
    int size = frame.size();
    int branches = conditions.size();
    ValueColumn first = conditions.get(0).eval(frame);
    if (branches == 1 && otherwise != null && allTrue(first, size)) {
      return values.get(0).eval(frame);
    }
    ArrayColumn out = new ArrayColumn(size);
    boolean[] open = new boolean[size]; // no condition so far held
    java.util.Arrays.fill(open, true);
    boolean[] taken = new boolean[size];
    for (int i = 0; i < branches; i++) {
      ValueColumn test = i == 0 ? first : Lazily.evalWhere(conditions.get(i), frame, open);
      boolean any = false;
      for (int p = 0; p < size; p++) {
        taken[p] = open[p] && test.kind(p) == ValueColumn.BOOLEAN && test.getBoolean(p);
        any |= taken[p];
      }
      if (!any) {
        continue;
      }
      ValueColumn result = Lazily.evalWhere(values.get(i), frame, taken);
      for (int p = 0; p < size; p++) {
        if (taken[p]) {
          out.copy(p, result, p);
          open[p] = false;
        }
      }
    }
    ValueColumn fallback = otherwise == null ? null : Lazily.evalWhere(otherwise, frame, open);
    for (int p = 0; p < size; p++) {
      if (open[p]) {
        if (fallback == null) {
          out.setNull(p);
        } else {
          out.copy(p, fallback, p);
        }
      }
    }
    return out;
  }

  private static boolean allTrue(ValueColumn test, int size) {
    for (int p = 0; p < size; p++) {
      if (test.kind(p) != ValueColumn.BOOLEAN || !test.getBoolean(p)) {
        return false;
      }
    }
    return true;
  }
}
