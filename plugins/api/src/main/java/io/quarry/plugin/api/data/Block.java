package io.quarry.plugin.api.data;

import java.util.List;

/**
 * One column of a {@link Page}: {@code positionCount()} positions of one {@link DataType}, each of
 * which holds no value (null), one value, or several (a multivalue, as {@code values(f)}, {@code
 * split} or {@code mvappend} make). Blocks are immutable once built.
 *
 * <p>Values are stored flat, position after position; a block where some position has several
 * values also keeps where each position's values start ({@link #getFirstValueIndex}). A block where
 * every position has at most one value keeps no such index ({@link #mayHaveMultivaluedFields} is
 * false) and value index and position are the same. A null position takes one unused value slot.
 * Reading every value of every position, for any block:
 *
 * <pre>{@code
 * for (int p = 0; p < block.positionCount(); p++) {
 *   int first = block.getFirstValueIndex(p);
 *   int end = first + block.getValueCount(p); // getValueCount is 0 for a null position
 *   for (int i = first; i < end; i++) {
 *     long value = longs.getLongValue(i); // getDoubleValue, getBooleanValue, getStringValue
 *   }
 * }
 * }</pre>
 *
 * <p>The accessors by position ({@link #getObject}, {@code getLong(position)}, {@code
 * getString(position)}, …) read a position's first value, so code written for single-valued blocks
 * reads a multivalue's first value; {@link #getValues} gives every value of a position.
 */
public sealed interface Block permits LongBlock, DoubleBlock, BooleanBlock, BytesBlock {

  int positionCount();

  boolean isNull(int position);

  /** The type of the values in the block (a long block may carry {@link DataType#TIMESTAMP}). */
  DataType dataType();

  /**
   * The value at a position as a Java object (Long, Double, Boolean, String; its first value when
   * it has several), or null.
   */
  Object getObject(int position);

  /**
   * Every value at a position as Java objects (Long, Double, Boolean, String), in order: none for a
   * null position, one for a single value, several for a multivalue.
   */
  default List<Object> getValues(int position) {
    int count = getValueCount(position);
    if (count == 0) {
      return List.of();
    }
    int first = getFirstValueIndex(position);
    Object[] values = new Object[count];
    for (int i = 0; i < count; i++) {
      values[i] =
          switch (this) {
            case LongBlock longs -> longs.getLongValue(first + i);
            case DoubleBlock doubles -> doubles.getDoubleValue(first + i);
            case BooleanBlock booleans -> booleans.getBooleanValue(first + i);
            case BytesBlock bytes -> bytes.getStringValue(first + i);
          };
    }
    return List.of(values);
  }

  /** How many values a position holds: 0 when it is null, 1, or more for a multivalue. */
  int getValueCount(int position);

  /**
   * The index of a position's first value, for the accessors by value index ({@code
   * getLongValue(int)}, …); its other values follow it. For a block without multivalues this is the
   * position itself.
   */
  int getFirstValueIndex(int position);

  /** The values of all positions together (null positions count none). */
  int getTotalValueCount();

  /**
   * Whether some position may hold several values; false means {@link #getValueCount} is at most 1
   * everywhere. Blocks built by the builders answer exactly: false unless a position has several
   * values.
   */
  boolean mayHaveMultivaluedFields();

  /**
   * The heap bytes the block's arrays hold: what a {@link BlockFactory} reserves for it against the
   * search's {@link MemoryAccount}.
   */
  long ramBytesUsed();
}
