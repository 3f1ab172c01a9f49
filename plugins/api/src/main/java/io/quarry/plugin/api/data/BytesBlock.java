package io.quarry.plugin.api.data;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A block of UTF-8 strings stored back to back in one byte array, with an offset per value and one
 * more: value {@code i} is {@code bytes[offsets[i], offsets[i + 1])}. See {@link Block} for
 * positions with several values.
 */
public final class BytesBlock implements Block {
  private final byte[] bytes;
  private final int[] offsets;
  private final long[] nulls;
  private final int[] firstValueIndexes;
  private final int positionCount;

  private BytesBlock(
      byte[] bytes, int[] offsets, long[] nulls, int[] firstValueIndexes, int positionCount) {
    this.bytes = bytes;
    this.offsets = offsets;
    this.nulls = nulls;
    this.firstValueIndexes = firstValueIndexes;
    this.positionCount = positionCount;
  }

  /**
   * The value at a position decoded to a String (empty for a null position; its first value when it
   * has several).
   */
  public String getString(int position) {
    return string(getFirstValueIndex(position));
  }

  /** The UTF-8 length of the value at a position (of its first value when it has several). */
  public int getLength(int position) {
    int value = getFirstValueIndex(position);
    return offsets[value + 1] - offsets[value];
  }

  /** The value at a value index (see {@link #getFirstValueIndex}) decoded to a String. */
  public String getStringValue(int valueIndex) {
    NullMask.checkIndex(valueIndex, offsets.length - 1);
    return string(valueIndex);
  }

  /**
   * Points {@code into} at the UTF-8 bytes of the value at a value index, without copying them (the
   * view is valid as long as the block; do not modify it). Since SPI 1.3.
   *
   * @return {@code into}
   */
  public ByteSlice getBytes(int valueIndex, ByteSlice into) {
    NullMask.checkIndex(valueIndex, offsets.length - 1);
    return into.reset(bytes, offsets[valueIndex], offsets[valueIndex + 1] - offsets[valueIndex]);
  }

  /** The UTF-8 length of the value at a value index. */
  public int getValueLength(int valueIndex) {
    NullMask.checkIndex(valueIndex, offsets.length - 1);
    return offsets[valueIndex + 1] - offsets[valueIndex];
  }

  private String string(int valueIndex) {
    return new String(
        bytes,
        offsets[valueIndex],
        offsets[valueIndex + 1] - offsets[valueIndex],
        StandardCharsets.UTF_8);
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
    return DataType.STRING;
  }

  @Override
  public Object getObject(int position) {
    return isNull(position) ? null : getString(position);
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
    return Positions.totalValueCount(nulls, positionCount, offsets.length - 1);
  }

  @Override
  public boolean mayHaveMultivaluedFields() {
    return firstValueIndexes != null;
  }

  @Override
  public long ramBytesUsed() {
    return 16L
        + bytes.length
        + 4L * offsets.length
        + (nulls == null ? 0 : 8L * nulls.length)
        + Positions.ramBytesUsed(firstValueIndexes);
  }

  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  /**
   * Appends positions one at a time: a value, a null, or between {@link #beginPositionEntry} and
   * {@link #endPositionEntry} the values of one position.
   */
  public static final class Builder {
    private final NullMask nulls = new NullMask();
    private final Positions positions = new Positions();
    private BlockFactory factory;
    private byte[] bytes;
    private int[] offsets;
    private int size; // value slots

    private Builder(int expectedSize) {
      int positions = Math.max(expectedSize, 8);
      this.bytes = new byte[positions * 16];
      this.offsets = new int[positions + 1];
    }

    /** Appends a position of one value, or a value to the open position entry. */
    public Builder append(String value) {
      return append(value.getBytes(StandardCharsets.UTF_8));
    }

    /** Appends a position of one UTF-8 value, or a value to the open position entry. */
    public Builder append(byte[] utf8) {
      return append(utf8, 0, utf8.length);
    }

    /**
     * Appends a position of one UTF-8 value given as {@code utf8[offset, offset + length)}, or a
     * value to the open position entry; the bytes are copied. Since SPI 1.3.
     */
    public Builder append(byte[] utf8, int offset, int length) {
      int start = offsets[size];
      if (start + length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, start + length));
      }
      System.arraycopy(utf8, offset, bytes, start, length);
      if (size + 1 == offsets.length) {
        offsets = Arrays.copyOf(offsets, offsets.length * 2);
      }
      if (!positions.entryOpen()) {
        positions.single(size);
      }
      offsets[++size] = start + length;
      return this;
    }

    /** Appends the value, or a null for null. */
    public Builder appendNullable(String value) {
      return value == null ? appendNull() : append(value);
    }

    /** Appends a null position (not allowed inside a position entry). */
    public Builder appendNull() {
      positions.checkNullAllowed();
      nulls.set(positions.positionCount());
      return append(new byte[0]);
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
    public BytesBlock build() {
      int[] firstValueIndexes = positions.build(size);
      BytesBlock block =
          new BytesBlock(
              Arrays.copyOf(bytes, offsets[size]),
              Arrays.copyOf(offsets, size + 1),
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
