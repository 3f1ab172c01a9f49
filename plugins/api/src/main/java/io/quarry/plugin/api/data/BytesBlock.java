package io.quarry.plugin.api.data;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A block of UTF-8 strings stored back to back in one byte array, with {@code positionCount + 1}
 * offsets: the value at position {@code p} is {@code bytes[offsets[p], offsets[p + 1])}.
 */
public final class BytesBlock implements Block {
  private final byte[] bytes;
  private final int[] offsets;
  private final long[] nulls;
  private final int positionCount;

  private BytesBlock(byte[] bytes, int[] offsets, long[] nulls, int positionCount) {
    this.bytes = bytes;
    this.offsets = offsets;
    this.nulls = nulls;
    this.positionCount = positionCount;
  }

  /** The value at a position decoded to a String (empty for a null position). */
  public String getString(int position) {
    NullMask.checkIndex(position, positionCount);
    return new String(
        bytes,
        offsets[position],
        offsets[position + 1] - offsets[position],
        StandardCharsets.UTF_8);
  }

  /** The UTF-8 length of the value at a position. */
  public int getLength(int position) {
    NullMask.checkIndex(position, positionCount);
    return offsets[position + 1] - offsets[position];
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
  public long ramBytesUsed() {
    return 16L + bytes.length + 4L * offsets.length + (nulls == null ? 0 : 8L * nulls.length);
  }

  public static Builder builder(int expectedSize) {
    return new Builder(expectedSize);
  }

  /** Appends values one position at a time. */
  public static final class Builder {
    private final NullMask nulls = new NullMask();
    private BlockFactory factory;
    private byte[] bytes;
    private int[] offsets;
    private int size;

    private Builder(int expectedSize) {
      int positions = Math.max(expectedSize, 8);
      this.bytes = new byte[positions * 16];
      this.offsets = new int[positions + 1];
    }

    public Builder append(String value) {
      return append(value.getBytes(StandardCharsets.UTF_8));
    }

    public Builder append(byte[] utf8) {
      int start = offsets[size];
      if (start + utf8.length > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, start + utf8.length));
      }
      System.arraycopy(utf8, 0, bytes, start, utf8.length);
      if (size + 1 == offsets.length) {
        offsets = Arrays.copyOf(offsets, offsets.length * 2);
      }
      offsets[++size] = start + utf8.length;
      return this;
    }

    /** Appends the value, or a null for null. */
    public Builder appendNullable(String value) {
      return value == null ? appendNull() : append(value);
    }

    public Builder appendNull() {
      nulls.set(size);
      return append(new byte[0]);
    }

    /**
     * Builds the block (reserved against the factory's account when the factory made the builder).
     */
    public BytesBlock build() {
      BytesBlock block =
          new BytesBlock(
              Arrays.copyOf(bytes, offsets[size]),
              Arrays.copyOf(offsets, size + 1),
              nulls.build(),
              size);
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
