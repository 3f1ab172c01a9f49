package io.quarry.ql.eval;

import io.quarry.ql.exec.EvalValues;

/**
 * A field read by a type test ({@code typeof}, {@code isnum}, {@code isint}, {@code isstr}, {@code
 * isdouble}): each text value that reads as a number is that number ({@link EvalValues#typed}), so
 * an extracted {@code status=200} is a Number as Splunk's eval types field values; every other
 * value as the field holds it.
 */
final class TypedFieldEvaluator implements ExpressionEvaluator {
  private final ExpressionEvaluator field;

  TypedFieldEvaluator(ExpressionEvaluator field) {
    this.field = field;
  }

  @Override
  public boolean total() {
    return field.total();
  }

  @Override
  public ValueColumn eval(Frame frame) {
    ValueColumn values = field.eval(frame);
    int size = frame.size();
    ArrayColumn out = null;
    for (int p = 0; p < size; p++) {
      if (values.kind(p) == ValueColumn.TEXT) {
        Object typed = EvalValues.typed(values.get(p));
        if (!(typed instanceof String)) {
          if (out == null) {
            out = new ArrayColumn(size);
            for (int q = 0; q < p; q++) {
              out.copy(q, values, q);
            }
          }
          out.set(p, typed);
          continue;
        }
      }
      if (out != null) {
        out.copy(p, values, p);
      }
    }
    return out == null ? values : out;
  }
}
