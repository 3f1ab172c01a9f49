package io.quarry.ql.exec;

/**
 * An arithmetic function bound to its literal arguments ({@link NumberFunctions#bind}) with one
 * rule for a whole number and one for a double, each writing its answer — a whole number, a double
 * or null — to an {@link Out}: so a column of numbers is answered without boxing a value per
 * position, and {@link #apply} (the {@code Evaluator}'s value for any subject: a text read as the
 * number it holds, anything else that is not a number null) runs the same two rules.
 */
public final class NumberFunction implements BoundFunction {
  /** Where a rule writes its answer. */
  public interface Out {
    void setNull();

    void setLong(long value);

    void setDouble(double value);
  }

  /** The rule for a whole number. */
  @FunctionalInterface
  interface LongRule {
    void apply(long x, Out out);
  }

  /** The rule for a double. */
  @FunctionalInterface
  interface DoubleRule {
    void apply(double x, Out out);
  }

  private final LongRule ofLong;
  private final DoubleRule ofDouble;

  NumberFunction(LongRule ofLong, DoubleRule ofDouble) {
    this.ofLong = ofLong;
    this.ofDouble = ofDouble;
  }

  /** The function of the whole number {@code x}, written to {@code out}. */
  public void ofLong(long x, Out out) {
    ofLong.apply(x, out);
  }

  /** The function of the double {@code x}, written to {@code out}. */
  public void ofDouble(double x, Out out) {
    ofDouble.apply(x, out);
  }

  @Override
  public Object apply(Object subject) {
    Object x = EvalValues.number(subject);
    if (x == null) {
      return null;
    }
    Boxed out = new Boxed();
    if (x instanceof Long l) {
      ofLong(l, out);
    } else {
      ofDouble((Double) x, out);
    }
    return out.value;
  }

  /** An answer as the {@code Evaluator} holds it. */
  private static final class Boxed implements Out {
    Object value;

    @Override
    public void setNull() {
      value = null;
    }

    @Override
    public void setLong(long value) {
      this.value = value;
    }

    @Override
    public void setDouble(double value) {
      this.value = value;
    }
  }
}
