package io.quarry.ql.eval;

/** {@code NOT x}: a boolean negated, anything else null. */
final class NotEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator operand;

  NotEvaluator(ExpressionEvaluator operand) {
    this.operand = operand;
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
      if (values.kind(p) == ValueColumn.BOOLEAN) {
        out.setBoolean(p, !values.getBoolean(p));
      } else {
        out.setNull(p);
      }
    }
    return out;
  }
}
