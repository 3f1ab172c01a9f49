package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;

/**
 * A block's values as the language reads them, by value index: as a number, as text, as the Java
 * value a row would hold. A timestamp block ({@code _time}) holds epoch microseconds, which a
 * computation reads as epoch seconds ({@link TimeField}); as a group key it is the microseconds'
 * digits.
 */
final class BlockValues {
  private BlockValues() {}

  /**
   * Whether {@code number}, what {@link #number} read at {@code valueIndex}, is a number: any but a
   * NaN, and a NaN a double block holds (arithmetic's {@code inf - inf}), which is a number whose
   * sum or average is NaN. A text never reads as a NaN number ({@code "nan"} is no number), so the
   * NaN {@link #number} answers for a text or a boolean means "not a number"; no boxing, and only a
   * NaN costs the block's type test.
   */
  static boolean isNumber(Block block, double number) {
    return !Double.isNaN(number) || block instanceof DoubleBlock;
  }

  /**
   * The value as a number (NaN when it is not one, or a double block's NaN: {@link #isNumber}
   * tells); a timestamp as epoch seconds.
   */
  static double number(Block block, int valueIndex) {
    return switch (block) {
      case LongBlock longs ->
          longs.dataType() == DataType.TIMESTAMP
              ? longs.getLongValue(valueIndex) / 1e6
              : longs.getLongValue(valueIndex);
      case DoubleBlock doubles -> doubles.getDoubleValue(valueIndex);
      case BytesBlock bytes -> Values.toNumber(bytes.getStringValue(valueIndex));
      case BooleanBlock booleans -> Double.NaN;
    };
  }

  /**
   * As {@link #number(Block, int)}, a text that is an optional sign and 1 to 15 digits read from
   * the block's bytes into {@code scratch}, without a {@code String} (the same double: such a whole
   * number is exact, {@code -0} is -0.0); any other text as {@link Values#toNumber} reads it.
   */
  static double number(Block block, int valueIndex, ByteSlice scratch) {
    if (!(block instanceof BytesBlock bytes)) {
      return number(block, valueIndex);
    }
    bytes.getBytes(valueIndex, scratch);
    byte[] utf8 = scratch.bytes();
    int start = scratch.offset();
    int end = start + scratch.length();
    boolean negative = false;
    if (start < end && (utf8[start] == '-' || utf8[start] == '+')) {
      negative = utf8[start] == '-';
      start++;
    }
    if (start == end || end - start > 15) {
      return Values.toNumber(bytes.getStringValue(valueIndex));
    }
    long value = 0;
    for (int i = start; i < end; i++) {
      int digit = utf8[i] - '0';
      if (digit < 0 || digit > 9) {
        return Values.toNumber(bytes.getStringValue(valueIndex));
      }
      value = value * 10 + digit;
    }
    return negative ? -(double) value : value;
  }

  /** The value as a function over it reads its text ({@code dc}, {@code values}). */
  static String text(Block block, int valueIndex) {
    return switch (block) {
      case LongBlock longs ->
          longs.dataType() == DataType.TIMESTAMP
              ? Values.toText(TimeField.secondsOf(longs.getLongValue(valueIndex)))
              : Long.toString(longs.getLongValue(valueIndex));
      case DoubleBlock doubles -> Values.toText(doubles.getDoubleValue(valueIndex));
      case BytesBlock bytes -> bytes.getStringValue(valueIndex);
      case BooleanBlock booleans -> Boolean.toString(booleans.getBooleanValue(valueIndex));
    };
  }

  /**
   * The value as a row holds it: a Long (a timestamp's microseconds), Double, String, Boolean; a
   * string block's value tagged as a number that number ({@link Values#stringValue}).
   */
  static Object object(Block block, int valueIndex) {
    return switch (block) {
      case LongBlock longs -> longs.getLongValue(valueIndex);
      case DoubleBlock doubles -> doubles.getDoubleValue(valueIndex);
      case BytesBlock bytes -> Values.stringValue(bytes, valueIndex);
      case BooleanBlock booleans -> booleans.getBooleanValue(valueIndex);
    };
  }

  /** The value as a group key: its text, a timestamp's microseconds. */
  static String key(Block block, int valueIndex) {
    if (block instanceof LongBlock longs) {
      return Long.toString(longs.getLongValue(valueIndex));
    }
    return text(block, valueIndex);
  }
}
