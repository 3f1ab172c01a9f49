package io.quarry.ql.eval;

/** A literal: its value at every position, one constant, nothing copied. */
final class LiteralEvaluator implements ExpressionEvaluator {
  private final Object value;

  LiteralEvaluator(Object value) {
    this.value = value;
  }

  /** The literal's value. */
  Object value() {
    return value;
  }

  @Override
  public ValueColumn eval(Frame frame) {
    return new ConstantColumn(value, frame.size());
  }
}
