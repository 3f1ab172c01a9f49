package io.quarry.plugin.api.data;

import java.util.Arrays;

/** A block of 64-bit integers; also the physical form of {@link DataType#TIMESTAMP} columns. */
public final class LongBlock implements Block {
  private final DataType dataType;
  private final long[] values;
  private final long[] nulls;
  private final int positionCount;

  private LongBlock(DataType dataType, long[] values, long[] nulls, int positionCount) {
    this.dataType = dataType;
    this.values = values;
    this.nulls = nulls;
    this.positionCount = positionCount;
  }

  public long getLong(int position) {
    NullMask.checkIndex(position, positionCount);
    return values[position];
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
    return isNull(position) ? null : values[position];
  }

  @Override
  public long ramBytesUsed() {
    return 16L + 8L * values.length + (nulls == null ? 0 : 8L * nulls.length);
  }

  public static Builder builder(DataType dataType, int expectedSize) {
    if (dataType != DataType.LONG && dataType != DataType.TIMESTAMP) {
      throw new IllegalArgumentException("a long block holds LONG or TIMESTAMP, not " + dataType);
    }
    return new Builder(dataType, expectedSize);
  }

  /** Appends values one position at a time. */
  public static final class Builder {
    private final DataType dataType;
    private final NullMask nulls = new NullMask();
    private BlockFactory factory;
    private long[] values;
    private int size;

    private Builder(DataType dataType, int expectedSize) {
      this.dataType = dataType;
      this.values = new long[Math.max(expectedSize, 8)];
    }

    public Builder append(long value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
      return this;
    }

    /** Appends the value, or a null for null. */
    public Builder appendNullable(Long value) {
      return value == null ? appendNull() : append(value);
    }

    public Builder appendNull() {
      nulls.set(size);
      return append(0);
    }

    /**
     * Builds the block (reserved against the factory's account when the factory made the builder).
     */
    public LongBlock build() {
      LongBlock block = new LongBlock(dataType, Arrays.copyOf(values, size), nulls.build(), size);
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
