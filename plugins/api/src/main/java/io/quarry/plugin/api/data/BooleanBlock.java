package io.quarry.plugin.api.data;

import java.util.Arrays;

/** A block of booleans, one byte per position. */
public final class BooleanBlock implements Block {
  private final boolean[] values;
  private final long[] nulls;
  private final int positionCount;

  private BooleanBlock(boolean[] values, long[] nulls, int positionCount) {
    this.values = values;
    this.nulls = nulls;
    this.positionCount = positionCount;
  }

  public boolean getBoolean(int position) {
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
    return DataType.BOOLEAN;
  }

  @Override
  public Object getObject(int position) {
    return isNull(position) ? null : values[position];
  }

  @Override
  public long ramBytesUsed() {
    return 16L + values.length + (nulls == null ? 0 : 8L * nulls.length);
  }

  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  /** Appends values one position at a time. */
  public static final class Builder {
    private final NullMask nulls = new NullMask();
    private BlockFactory factory;
    private boolean[] values;
    private int size;

    private Builder(int expectedSize) {
      this.values = new boolean[Math.max(expectedSize, 8)];
    }

    public Builder append(boolean value) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = value;
      return this;
    }

    public Builder appendNull() {
      nulls.set(size);
      return append(false);
    }

    /**
     * Builds the block (reserved against the factory's account when the factory made the builder).
     */
    public BooleanBlock build() {
      BooleanBlock block = new BooleanBlock(Arrays.copyOf(values, size), nulls.build(), size);
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
