package io.quarry.ql.eval;

/** {@code a . b}: the two values' texts joined; null when either is null. */
final class ConcatEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator left;
  private final ExpressionEvaluator right;

  ConcatEvaluator(ExpressionEvaluator left, ExpressionEvaluator right) {
    this.left = left;
    this.right = right;
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
        out.setText(p, ColumnValues.text(a, p).concat(ColumnValues.text(b, p)));
      }
    }
    return out;
  }
}
