package io.quarry.ql.eval;

/** {@code isnull(x)} and {@code isnotnull(x)}: whether the value is (not) null, never null. */
final class NullTestEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator operand;
  private final boolean whenNull;

  /** {@code isnull} when {@code whenNull}, else {@code isnotnull}. */
  NullTestEvaluator(ExpressionEvaluator operand, boolean whenNull) {
    this.operand = operand;
    this.whenNull = whenNull;
  }

  @Override
  public boolean total() {
    return operand.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
    ValueColumn values = operand.eval(frame);
    int size = frame.size();
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      out.setBoolean(p, (values.kind(p) == ValueColumn.NULL) == whenNull);
    }
    return out;
  }
}
