package io.quarry.plugin.api.data;

import java.util.Arrays;

/** A block of 64-bit floating point numbers. */
public final class DoubleBlock implements Block {
  private final DataType dataType;
  private final double[] values;
  private final long[] nulls;
  private final int positionCount;

  private DoubleBlock(DataType dataType, double[] values, long[] nulls, int positionCount) {
    this.dataType = dataType;
    this.values = values;
    this.nulls = nulls;
    this.positionCount = positionCount;
  }

  public double getDouble(int position) {
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

  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  /** Appends values one position at a time. */
  public static final class Builder {
    private final NullMask nulls = new NullMask();
    private BlockFactory factory;
    private double[] values;
    private int size;

    private Builder(int expectedSize) {
      this.values = new double[Math.max(expectedSize, 8)];
    }

    public Builder append(double value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
      return this;
    }

    /** Appends the value, or a null for null. */
    public Builder appendNullable(Double value) {
      return value == null ? appendNull() : append(value);
    }

    public Builder appendNull() {
      nulls.set(size);
      return append(0);
    }

    /**
     * Builds the block (reserved against the factory's account when the factory made the builder).
     */
    public DoubleBlock build() {
      DoubleBlock block =
          new DoubleBlock(DataType.DOUBLE, Arrays.copyOf(values, size), nulls.build(), size);
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
