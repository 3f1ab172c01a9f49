package io.quarry.ql.eval;

import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.NumberFunction;

/**
 * An arithmetic function ({@link NumberFunction}) over a column position by position without
 * boxing: a whole number or a double read typed and its answer written typed ({@link
 * ArrayColumn#setLong} …), a field of whole numbers without nulls or multivalues in a loop without
 * kinds; any other value (a text that may hold a number, a multivalue, a boolean) through the
 * function's {@link NumberFunction#apply}, the same rules over the value as the {@code Evaluator}
 * holds it.
 */
final class TypedNumbers implements NumberFunction.Out {
  private final ArrayColumn out;
  private int position;

  private TypedNumbers(ArrayColumn out) {
    this.out = out;
  }

  /** {@code function} at each position of {@code values}. */
  static ArrayColumn apply(NumberFunction function, ValueColumn values) {
    int size = values.size();
    TypedNumbers into = new TypedNumbers(new ArrayColumn(size));
    if (values instanceof BlockColumn block && block.denseLongs() instanceof LongBlock dense) {
      for (int p = 0; p < size; p++) {
        into.position = p;
        function.ofLong(dense.getLong(p), into);
      }
      return into.out;
    }
    for (int p = 0; p < size; p++) {
      into.position = p;
      switch (values.kind(p)) {
        case ValueColumn.NULL -> into.out.setNull(p);
        case ValueColumn.LONG -> function.ofLong(values.getLong(p), into);
        case ValueColumn.DOUBLE -> function.ofDouble(values.getDouble(p), into);
        default -> into.out.set(p, function.apply(values.get(p)));
      }
    }
    return into.out;
  }

  @Override
  public void setNull() {
    out.setNull(position);
  }

  @Override
  public void setLong(long value) {
    out.setLong(position, value);
  }

  @Override
  public void setDouble(double value) {
    out.setDouble(position, value);
  }
}
