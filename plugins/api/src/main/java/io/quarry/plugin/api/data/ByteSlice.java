package io.quarry.plugin.api.data;

import java.nio.charset.StandardCharsets;

/**
 * A view of a range of bytes that belong to someone else — a {@link BytesBlock}'s value, read
 * without copying it ({@link BytesBlock#getBytes}): {@code bytes()[offset(), offset() + length())}.
 * Mutable and reused (one per reader, pointed at the next value by the next call); never modify the
 * bytes it shows, and copy what you keep. Since SPI 1.3.
 */
public final class ByteSlice {
  private byte[] bytes = new byte[0];
  private int offset;
  private int length;

  /** Points this view at {@code bytes[offset, offset + length)}. */
  public ByteSlice reset(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
    return this;
  }

  /** The array the bytes lie in (not a copy: read only). */
  public byte[] bytes() {
    return bytes;
  }

  public int offset() {
    return offset;
  }

  public int length() {
    return length;
  }

  /** The bytes decoded as UTF-8. */
  @Override
  public String toString() {
    return new String(bytes, offset, length, StandardCharsets.UTF_8);
  }
}
