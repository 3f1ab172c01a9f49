package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
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
 * digits, as the row engine keys it.
 */
final class BlockValues {
  private BlockValues() {}

  /** The value as a number (NaN when it is not one); a timestamp as epoch seconds. */
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

  /** The value as a group key: its text, a timestamp's microseconds. */
  static String key(Block block, int valueIndex) {
    if (block instanceof LongBlock longs) {
      return Long.toString(longs.getLongValue(valueIndex));
    }
    return text(block, valueIndex);
  }
}
