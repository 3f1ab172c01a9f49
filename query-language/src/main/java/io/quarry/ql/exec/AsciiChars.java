package io.quarry.ql.exec;

import io.quarry.plugin.api.data.ByteSlice;
import java.nio.charset.StandardCharsets;

/**
 * Characters over a {@code BytesBlock}'s value when it is all ASCII (one byte, one character),
 * without decoding it: how a page stage hands a text column's values to a regex. Mutable and reused
 * (one per stage and thread), valid until the next {@link #reset}; {@link #subSequence} and {@link
 * #toString} copy. The page-side twin of the scan's view over journal bytes ({@code
 * codecs.store.AsciiText}), which this module cannot see.
 *
 * @see io.quarry.plugin.api.data.BytesBlock#getBytes
 */
final class AsciiChars implements CharSequence {
  private byte[] bytes = new byte[0];
  private int offset;
  private int length;

  /** This over {@code slice}'s bytes when they are ASCII, else null (decode them instead). */
  AsciiChars reset(ByteSlice slice) {
    byte[] array = slice.bytes();
    int end = slice.offset() + slice.length();
    for (int i = slice.offset(); i < end; i++) {
      if (array[i] < 0) {
        return null;
      }
    }
    this.bytes = array;
    this.offset = slice.offset();
    this.length = slice.length();
    return this;
  }

  /** The array the characters lie in (not a copy: read only). */
  byte[] array() {
    return bytes;
  }

  /** Where the characters start in {@link #array}. */
  int offset() {
    return offset;
  }

  @Override
  public int length() {
    return length;
  }

  @Override
  public char charAt(int index) {
    if (index < 0 || index >= length) {
      throw new StringIndexOutOfBoundsException("index " + index + ", length " + length);
    }
    return (char) bytes[offset + index];
  }

  @Override
  public String subSequence(int start, int end) {
    if (start < 0 || end > length || start > end) {
      throw new StringIndexOutOfBoundsException(
          "begin " + start + ", end " + end + ", length " + length);
    }
    return new String(bytes, offset + start, end - start, StandardCharsets.ISO_8859_1);
  }

  @Override
  public String toString() {
    return new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
  }
}
