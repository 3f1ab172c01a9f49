package io.quarry.ql.eval;

import io.quarry.ql.exec.TimeField;
import java.util.List;

/**
 * A field reference: the page's block of that name seen as a {@link BlockColumn} (no copy; at a
 * selection's positions, through them: {@link Frame#field}), an absent field a constant null; or,
 * for a field an earlier assignment of the same {@code eval} set, that assignment's column read as
 * {@code Evaluator} reads an assigned value back (a one-value list is the value, an empty one null,
 * {@code _time} microseconds as seconds).
 */
final class FieldEvaluator implements ExpressionEvaluator {
  private final String name;
  private final int slot;

  /** The page's field {@code name}. */
  static FieldEvaluator ofPage(String name) {
    return new FieldEvaluator(name, -1);
  }

  /** The column an earlier assignment of the same eval put in {@code slot}. */
  static FieldEvaluator ofAssigned(String name, int slot) {
    return new FieldEvaluator(name, slot);
  }

  private FieldEvaluator(String name, int slot) {
    this.name = name;
    this.slot = slot;
  }

  @Override
  public ValueColumn eval(Frame frame) {
    if (slot >= 0) {
      return readBack(frame.assigned(slot), frame.size());
    }
    return frame.field(name);
  }

  private ValueColumn readBack(ValueColumn column, int size) {
    boolean time = TimeField.is(name);
    ArrayColumn copy = null;
    for (int p = 0; p < size; p++) {
      byte kind = column.kind(p);
      if (kind == ValueColumn.MULTIVALUE || time && kind != ValueColumn.NULL) {
        if (copy == null) {
          copy = new ArrayColumn(size);
          for (int q = 0; q < p; q++) {
            copy.copy(q, column, q);
          }
        }
        copy.set(p, readBack(column.get(p), time));
      } else if (copy != null) {
        copy.copy(p, column, p);
      }
    }
    return copy == null ? column : copy;
  }

  /** An assigned value read back as a field (a one-value list the value, {@code _time} seconds). */
  private static Object readBack(Object value, boolean time) {
    List<?> values = value instanceof List<?> list ? list : List.of(value);
    if (values.isEmpty()) {
      return null;
    }
    if (time) {
      return TimeField.seconds(values.get(0));
    }
    return values.size() == 1 ? values.get(0) : List.copyOf(values);
  }
}
