package io.quarry.ql.eval;

import io.quarry.ql.exec.EvalValues;
import io.quarry.ql.exec.Values;

/** Reading a position of a column as the Evaluator's coercions do, without boxing where it can. */
final class ColumnValues {
  private ColumnValues() {}

  /** {@link EvalValues#text} of the value at a position (not null). */
  static String text(ValueColumn column, int position) {
    return switch (column.kind(position)) {
      case ValueColumn.LONG -> Long.toString(column.getLong(position));
      case ValueColumn.DOUBLE -> Values.toText(column.getDouble(position));
      case ValueColumn.TEXT -> column.getText(position);
      case ValueColumn.BOOLEAN -> column.getBoolean(position) ? "true" : "false";
      default -> EvalValues.text(column.get(position));
    };
  }

  /** Whether a kind is a number the fast paths compute with directly. */
  static boolean numeric(byte kind) {
    return kind == ValueColumn.LONG || kind == ValueColumn.DOUBLE;
  }

  /** A {@link #numeric} position as a double. */
  static double doubleValue(ValueColumn column, int position, byte kind) {
    return kind == ValueColumn.LONG ? column.getLong(position) : column.getDouble(position);
  }
}
