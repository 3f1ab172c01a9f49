package io.quarry.ql.eval;

/** {@code -x}: a number negated ({@code Long.MIN_VALUE} becomes a double), anything else null. */
final class NegateEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator operand;
  private final long[] longs = new long[1]; // the number ColumnValues.number reads
  private final double[] doubles = new double[1];

  NegateEvaluator(ExpressionEvaluator operand) {
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
      switch (ColumnValues.number(values, p, values.kind(p), longs, doubles, 0)) {
        case ValueColumn.LONG -> negate(out, p, longs[0]);
        case ValueColumn.DOUBLE -> out.setDouble(p, -doubles[0]);
        default -> out.setNull(p);
      }
    }
    return out;
  }

  private static void negate(ArrayColumn out, int p, long value) {
    if (value == Long.MIN_VALUE) {
      out.setDouble(p, -(double) value);
    } else {
      out.setLong(p, -value);
    }
  }
}
