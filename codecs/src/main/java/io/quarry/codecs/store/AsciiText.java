package io.quarry.codecs.store;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Characters over a range of ASCII bytes, without copying them: how a scan hands an event's {@code
 * _raw} to a regex while it still lies in the decoded journal block. Mutable and reused (one per
 * reader): it is valid until {@link #reset} points it elsewhere; {@link #subSequence} and {@link
 * #toString} copy, so what a caller keeps is a {@code String}.
 */
public final class AsciiText implements CharSequence {
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080808080808080L;

  private byte[] bytes;
  private int offset;
  private int length;

  /**
   * Whether {@code bytes[offset, offset + length)} is all ASCII (each byte one character): 32 bytes
   * a step into four words ORed apart, so no OR waits on the one before (one chain ran at ~13 GB/s,
   * four at ~30; a block scan checks every text byte it reads once).
   */
  public static boolean isAscii(byte[] bytes, int offset, int length) {
    int i = offset;
    int end = offset + length;
    long a = 0;
    long b = 0;
    long c = 0;
    long d = 0;
    for (; i + 4 * Long.BYTES <= end; i += 4 * Long.BYTES) {
      a |= (long) LONGS.get(bytes, i);
      b |= (long) LONGS.get(bytes, i + Long.BYTES);
      c |= (long) LONGS.get(bytes, i + 2 * Long.BYTES);
      d |= (long) LONGS.get(bytes, i + 3 * Long.BYTES);
    }
    long any = a | b | c | d;
    for (; i + Long.BYTES <= end; i += Long.BYTES) {
      any |= (long) LONGS.get(bytes, i);
    }
    for (; i < end; i++) {
      any |= bytes[i];
    }
    return (any & HIGH_BITS) == 0; // a negative byte in the tail sets every bit
  }

  /**
   * The bytes of {@code text} when every character is ASCII (then its UTF-8 bytes, one per
   * character), else null. Exact: the JDK encodes an unpaired surrogate as {@code ?}, one byte, so
   * a result of one byte per character is taken only when it reads back as the very text (a copy
   * and a vectorized compare, which fails at once for a string the JDK does not hold as Latin-1).
   */
  public static byte[] bytesOf(String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    return utf8.length == text.length()
            && text.equals(new String(utf8, StandardCharsets.ISO_8859_1))
        ? utf8
        : null;
  }

  /** Points this at {@code bytes[offset, offset + length)}, which must be ASCII. */
  public AsciiText reset(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
    return this;
  }

  /** The array the characters lie in, one byte each (not a copy: read only). */
  public byte[] array() {
    return bytes;
  }

  /** Where the characters start in {@link #array}. */
  public int offset() {
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
