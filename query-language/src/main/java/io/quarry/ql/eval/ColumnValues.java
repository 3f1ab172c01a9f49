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

  /** What {@link #number} writes for a position that does not read as a number. */
  static final byte NOT_A_NUMBER = ValueColumn.NULL;

  /**
   * The number a single value reads as ({@link EvalValues#number}: a numeric text too), written to
   * {@code longs[slot]} or {@code doubles[slot]}.
   *
   * @return {@link ValueColumn#LONG}, {@link ValueColumn#DOUBLE}, or {@link #NOT_A_NUMBER}
   */
  static byte number(
      ValueColumn column, int position, byte kind, long[] longs, double[] doubles, int slot) {
    switch (kind) {
      case ValueColumn.LONG -> {
        longs[slot] = column.getLong(position);
        return ValueColumn.LONG;
      }
      case ValueColumn.DOUBLE -> {
        doubles[slot] = column.getDouble(position);
        return ValueColumn.DOUBLE;
      }
      case ValueColumn.TEXT -> {
        if (column instanceof BlockColumn block && block.smallInteger(position, longs, slot)) {
          return ValueColumn.LONG; // read from the bytes, no String
        }
        String text = column.getText(position);
        if (isSmallInteger(text)) {
          longs[slot] = Long.parseLong(text);
          return ValueColumn.LONG;
        }
        switch (EvalValues.number(text)) {
          case Long l -> {
            longs[slot] = l;
            return ValueColumn.LONG;
          }
          case Double d -> {
            doubles[slot] = d;
            return ValueColumn.DOUBLE;
          }
          case null, default -> {
            return NOT_A_NUMBER;
          }
        }
      }
      default -> {
        return NOT_A_NUMBER;
      }
    }
  }

  /**
   * Whether a text is an optional sign and 1 to 15 digits — a whole number below 2^53 that {@link
   * EvalValues#number} reads as the {@code Long} {@link Long#parseLong} gives (the common case of a
   * numeric field, read without a double parse).
   */
  static boolean isSmallInteger(String text) {
    int length = text.length();
    int start = length > 0 && (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
    if (length == start || length - start > 15) {
      return false;
    }
    for (int i = start; i < length; i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
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
