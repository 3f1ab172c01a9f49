// Generated from src/main/templates/X-Block.java.tmpl: do not edit; edit the template, then
// run the test that lists it with -Dquarry.regenerate=true (GeneratedSources, plugins/api tests).
package io.quarry.plugin.api.data;

import java.util.Arrays;

/**
 * A block of 64-bit integers; also the physical form of {@link DataType#TIMESTAMP} columns. See
 * {@link Block} for positions with several values.
 */
public final class LongBlock implements Block {
  private final DataType dataType;
  private final long[] values;
  private final long[] nulls;
  private final int[] firstValueIndexes;
  private final int positionCount;

  private LongBlock(
      DataType dataType, long[] values, long[] nulls, int[] firstValueIndexes, int positionCount) {
    this.dataType = dataType;
    this.values = values;
    this.nulls = nulls;
    this.firstValueIndexes = firstValueIndexes;
    this.positionCount = positionCount;
  }

  /** The value at a position (its first value when it has several). */
  public long getLong(int position) {
    return values[getFirstValueIndex(position)];
  }

  /** The value at a value index (see {@link #getFirstValueIndex}). */
  public long getLongValue(int valueIndex) {
    NullMask.checkIndex(valueIndex, values.length);
    return values[valueIndex];
  }

  @Override
  public int positionCount() {
    return positionCount;
  }

  @Override
  public boolean isNull(int position) {
    NullMask.checkIndex(position, positionCount);
    return NullMask.isNull(nulls, position);
  }

  @Override
  public DataType dataType() {
    return dataType;
  }

  @Override
  public Object getObject(int position) {
    return isNull(position) ? null : values[getFirstValueIndex(position)];
  }

  @Override
  public int getValueCount(int position) {
    return Positions.valueCount(firstValueIndexes, nulls, position, positionCount);
  }

  @Override
  public int getFirstValueIndex(int position) {
    return Positions.firstValueIndex(firstValueIndexes, position, positionCount);
  }

  @Override
  public int getTotalValueCount() {
    return Positions.totalValueCount(nulls, positionCount, values.length);
  }

  @Override
  public boolean mayHaveMultivaluedFields() {
    return firstValueIndexes != null;
  }

  @Override
  public long ramBytesUsed() {
    return 16L
        + 8L * values.length
        + (nulls == null ? 0 : 8L * nulls.length)
        + Positions.ramBytesUsed(firstValueIndexes);
  }

  public static Builder builder(DataType dataType, int expectedSize) {
    if (dataType != DataType.LONG && dataType != DataType.TIMESTAMP) {
      throw new IllegalArgumentException("a long block holds LONG or TIMESTAMP, not " + dataType);
    }
    return new Builder(dataType, expectedSize);
  }

  /**
   * Appends positions one at a time: a value, a null, or between {@link #beginPositionEntry} and
   * {@link #endPositionEntry} the values of one position.
   */
  public static final class Builder {
    private final DataType dataType;
    private final NullMask nulls = new NullMask();
    private final Positions positions = new Positions();
    private BlockFactory factory;
    private long[] values;
    private int size; // value slots

    private Builder(DataType dataType, int expectedSize) {
      this.dataType = dataType;
      this.values = new long[Math.max(expectedSize, 8)];
    }

    /** Appends a position of one value, or a value to the open position entry. */
    public Builder append(long value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size] = value;
      if (!positions.entryOpen()) {
        positions.single(size);
      }
      size++;
      return this;
    }

    /** Appends the value, or a null for null. */
    public Builder appendNullable(Long value) {
      return value == null ? appendNull() : append(value);
    }

    /** Appends a null position (not allowed inside a position entry). */
    public Builder appendNull() {
      positions.checkNullAllowed();
      nulls.set(positions.positionCount());
      return append(0);
    }

    /** Starts a position whose values are the {@link #append}s up to {@link #endPositionEntry}. */
    public Builder beginPositionEntry() {
      positions.begin(size);
      return this;
    }

    /** Ends the position entry; one without values is a null position. */
    public Builder endPositionEntry() {
      if (positions.end(size) == 0) {
        appendNull();
      }
      return this;
    }

    /**
     * Builds the block (reserved against the factory's account when the factory made the builder).
     */
    public LongBlock build() {
      int[] firstValueIndexes = positions.build(size);
      LongBlock block =
          new LongBlock(
              dataType,
              Arrays.copyOf(values, size),
              nulls.build(),
              firstValueIndexes,
              positions.positionCount());
      if (factory != null) {
        factory.reserve(block);
      }
      return block;
    }

    Builder accountedBy(BlockFactory factory) {
      this.factory = factory;
      return this;
    }
  }
}
