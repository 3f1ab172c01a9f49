package io.quarry.ql.eval;

import java.util.List;

/**
 * {@code if(c, a, b)} and {@code case(c1, v1, c2, v2, …)}: at each position the value of the first
 * branch whose condition is true (a condition that is null or not a boolean is false), {@code if}'s
 * last argument or {@code case}'s null when none is. Every branch is evaluated over the whole page
 * and its values taken where chosen, so the compiler builds this only over {@link
 * ExpressionEvaluator#total} branches.
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
    ValueColumn[] tests = new ValueColumn[branches];
    ValueColumn[] results = new ValueColumn[branches];
    for (int i = 0; i < branches; i++) {
      tests[i] = conditions.get(i).eval(frame);
      results[i] = values.get(i).eval(frame);
    }
    ValueColumn fallback = otherwise == null ? null : otherwise.eval(frame);
    if (branches == 1 && fallback != null && allTrue(tests[0], size)) {
      return results[0];
    }
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      ValueColumn chosen = fallback;
      for (int i = 0; i < branches; i++) {
        if (tests[i].kind(p) == ValueColumn.BOOLEAN && tests[i].getBoolean(p)) {
          chosen = results[i];
          break;
        }
      }
      if (chosen == null) {
        out.setNull(p);
      } else {
        out.copy(p, chosen, p);
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
