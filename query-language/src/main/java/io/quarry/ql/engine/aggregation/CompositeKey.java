package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.ByteSlice;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.LongBlock;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The key of a group of several by-fields being built ({@link GroupKeys}): each by-field's value's
 * text after its length (four bytes, big-endian), one after another — a whole-number or timestamp
 * value written as its decimal digits straight from its block. Reused key after key. Moved out of
 * {@link GroupKeys}.
 */
final class CompositeKey {
  private byte[] bytes = new byte[64];
  private int used; // the key's length so far

  /** Starts a new key. */
  void reset() {
    used = 0;
  }

  /** The key's bytes, {@code [0, length())}; valid until the next value is appended. */
  byte[] bytes() {
    return bytes;
  }

  /** The key's length in bytes. */
  int length() {
    return used;
  }

  /** The length written before a value's text at {@code at} of a composite key. */
  static int lengthAt(byte[] bytes, int at) {
    return (bytes[at] & 0xFF) << 24
        | (bytes[at + 1] & 0xFF) << 16
        | (bytes[at + 2] & 0xFF) << 8
        | (bytes[at + 3] & 0xFF);
  }

  /** Appends one by-field's value (a single-valued block's position) to the key. */
  void appendValue(Block block, int position, ByteSlice scratch) {
    switch (block) {
      case BytesBlock strings -> {
        strings.getBytes(position, scratch);
        appendBytes(scratch.bytes(), scratch.offset(), scratch.length());
      }
      case LongBlock longs -> appendDigits(longs.getLongValue(position));
      default -> appendText(BlockValues.key(block, position));
    }
  }

  /** Appends a value given as text. */
  void appendText(String text) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    appendBytes(utf8, 0, utf8.length);
  }

  private void appendBytes(byte[] from, int offset, int length) {
    int at = reserve(length);
    System.arraycopy(from, offset, bytes, at, length);
  }

  /** A whole number's decimal digits, as {@link Long#toString(long)} writes them. */
  private void appendDigits(long value) {
    if (value == Long.MIN_VALUE) {
      appendText(Long.toString(value));
      return;
    }
    boolean negative = value < 0;
    long magnitude = Math.abs(value);
    int digits = 1;
    for (long rest = magnitude / 10; rest > 0; rest /= 10) {
      digits++;
    }
    int length = digits + (negative ? 1 : 0);
    int at = reserve(length);
    if (negative) {
      bytes[at] = '-';
    }
    for (int i = at + length - 1; i >= at + (negative ? 1 : 0); i--) {
      bytes[i] = (byte) ('0' + magnitude % 10);
      magnitude /= 10;
    }
  }

  /** Writes a value's length and makes room for its bytes; returns where they go. */
  private int reserve(int length) {
    int needed = used + Integer.BYTES + length;
    if (needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(needed, bytes.length * 2));
    }
    int at = used;
    bytes[at] = (byte) (length >>> 24);
    bytes[at + 1] = (byte) (length >>> 16);
    bytes[at + 2] = (byte) (length >>> 8);
    bytes[at + 3] = (byte) length;
    used = needed;
    return at + Integer.BYTES;
  }
}
