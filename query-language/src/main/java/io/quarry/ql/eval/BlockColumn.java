package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import java.util.List;

/**
 * A field's block read as the {@code Evaluator} reads a field, without copying it: a position's one
 * value as it is, several values as a multivalue, and {@code _time}'s microseconds as epoch seconds
 * ({@link TimeField#seconds}: whole seconds a {@code Long}, else a {@code Double}; of a multivalued
 * {@code _time} only the first value). A string block's value tagged as a number ({@link
 * BytesBlock#isNumber}: a number beside text on its page) reads as that number.
 */
public final class BlockColumn implements ValueColumn {
  private static final long MICROS_PER_SECOND = 1_000_000;

  private final Block block;
  private final boolean time;
  private final boolean multivalued;
  private final LongBlock longs;
  private final DoubleBlock doubles;
  private final BooleanBlock booleans;
  private final BytesBlock bytes;
  private final byte valueKind;
  private final boolean numbersInText; // a string block with values tagged as numbers

  /** The block of the field named {@code field}. */
  public BlockColumn(String field, Block block) {
    this.block = block;
    this.time = TimeField.is(field);
    this.multivalued = !time && block.mayHaveMultivaluedFields();
    this.longs = block instanceof LongBlock l ? l : null;
    this.doubles = block instanceof DoubleBlock d ? d : null;
    this.booleans = block instanceof BooleanBlock b ? b : null;
    this.bytes = block instanceof BytesBlock b ? b : null;
    this.valueKind =
        switch (block) {
          case LongBlock l -> LONG;
          case DoubleBlock d -> DOUBLE;
          case BooleanBlock b -> BOOLEAN;
          case BytesBlock b -> TEXT;
        };
    this.numbersInText = bytes != null && !time && bytes.mayHaveNumbers();
  }

  /**
   * The long block when every position holds exactly one whole number read as it is (no null, no
   * multivalue, not {@code _time}): the dense case a fast path loops over without kinds; else null.
   */
  public LongBlock denseLongs() {
    return longs != null
            && !time
            && !block.mayHaveMultivaluedFields()
            && block.getTotalValueCount() == block.positionCount()
        ? longs
        : null;
  }

  private final ByteSlice slice = new ByteSlice();

  /**
   * Whether the text at a {@link #TEXT} position is an optional sign and 1 to 15 digits ({@link
   * ColumnValues#isSmallInteger}), read from the block's UTF-8 bytes without decoding a {@code
   * String}; if so its value is written to {@code into[slot]}.
   */
  boolean smallInteger(int position, long[] into, int slot) {
    if (bytes == null) {
      return false;
    }
    bytes.getBytes(bytes.getFirstValueIndex(position), slice);
    byte[] utf8 = slice.bytes();
    int start = slice.offset();
    int end = start + slice.length();
    boolean negative = false;
    if (start < end && (utf8[start] == '-' || utf8[start] == '+')) {
      negative = utf8[start] == '-';
      start++;
    }
    if (start == end || end - start > 15) {
      return false;
    }
    long value = 0;
    for (int i = start; i < end; i++) {
      int digit = utf8[i] - '0';
      if (digit < 0 || digit > 9) {
        return false;
      }
      value = value * 10 + digit;
    }
    into[slot] = negative ? -value : value;
    return true;
  }

  /**
   * The string block when it is in dictionary (or constant) form and read as it is (not {@code
   * _time}): a {@link #TEXT} position's value is its dictionary entry {@link
   * BytesBlock#getOrdinal}; else null.
   */
  BytesBlock dictionaryBlock() {
    return bytes != null && !time && !numbersInText && bytes.dictionary() != null ? bytes : null;
  }

  /** The block read. */
  public Block block() {
    return block;
  }

  @Override
  public int size() {
    return block.positionCount();
  }

  @Override
  public byte kind(int position) {
    if (block.isNull(position)) {
      return NULL;
    }
    if (multivalued && block.getValueCount(position) > 1) {
      return MULTIVALUE;
    }
    if (time && longs != null && longs.getLong(position) % MICROS_PER_SECOND != 0) {
      return DOUBLE;
    }
    if (numbersInText && bytes.isNumber(bytes.getFirstValueIndex(position))) {
      return taggedNumber(position) instanceof Long ? LONG : DOUBLE;
    }
    return valueKind;
  }

  /**
   * The number a tagged string value spells ({@link Values#numberOfText}), a double when tagged as
   * one ({@code BytesBlock.isDouble}).
   */
  private Object taggedNumber(int position) {
    int valueIndex = bytes.getFirstValueIndex(position);
    return Values.numberOfText(bytes.getStringValue(valueIndex), bytes.isDouble(valueIndex));
  }

  @Override
  public long getLong(int position) {
    if (longs == null) {
      return (Long) taggedNumber(position);
    }
    long value = longs.getLong(position);
    return time ? value / MICROS_PER_SECOND : value;
  }

  @Override
  public double getDouble(int position) {
    if (numbersInText) {
      return ((Number) taggedNumber(position)).doubleValue();
    }
    return time && longs != null ? longs.getLong(position) / 1e6 : doubles.getDouble(position);
  }

  @Override
  public boolean getBoolean(int position) {
    return booleans.getBoolean(position);
  }

  @Override
  public String getText(int position) {
    return bytes.getString(position);
  }

  @Override
  public Object get(int position) {
    return switch (kind(position)) {
      case NULL -> null;
      case LONG -> getLong(position);
      case DOUBLE -> getDouble(position);
      case BOOLEAN -> getBoolean(position);
      case TEXT -> getText(position);
      default -> numbersInText ? taggedValues(position) : List.copyOf(block.getValues(position));
    };
  }

  /** A multivalue of a string block with tagged numbers: each value as the language reads it. */
  private List<Object> taggedValues(int position) {
    int first = bytes.getFirstValueIndex(position);
    Object[] values = new Object[bytes.getValueCount(position)];
    for (int i = 0; i < values.length; i++) {
      values[i] = Values.stringValue(bytes, first + i);
    }
    return List.of(values);
  }
}
