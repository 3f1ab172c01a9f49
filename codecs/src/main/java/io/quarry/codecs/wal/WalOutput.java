package io.quarry.codecs.wal;

import io.quarry.codecs.store.AsciiText;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.store.ByteBuffersDataOutput;
import org.apache.lucene.store.DataOutput;
import org.apache.lucene.util.BytesRef;

/**
 * A record's encoded bytes ({@link WalCodec}): one growable array, sized up front, so the bytes are
 * copied once (a {@link ByteBuffersDataOutput}'s blocks would be copied again into one array); and
 * how a string is written into it or any output ({@link #writeString}: Lucene's {@code writeString}
 * bytes, cheaper).
 */
final class WalOutput extends DataOutput {
  byte[] bytes;
  int length;

  WalOutput(int capacity) {
    bytes = new byte[Math.max(16, capacity)];
  }

  @Override
  public void writeByte(byte b) {
    if (length == bytes.length) {
      grow(length + 1);
    }
    bytes[length++] = b;
  }

  @Override
  public void writeBytes(byte[] b, int offset, int count) {
    if (length + count > bytes.length) {
      grow(length + count);
    }
    System.arraycopy(b, offset, bytes, length, count);
    length += count;
  }

  /**
   * Writes a short string (at most {@link #SHORT_STRING} chars) as its length and its bytes when
   * every char is ASCII, in one pass straight into the array; returns false, having written
   * nothing, at the first char that is not.
   */
  boolean writeShortAscii(String text) {
    int textLength = text.length();
    if (length + 1 + textLength > bytes.length) {
      grow(length + 1 + textLength);
    }
    byte[] array = bytes;
    int at = length + 1; // a length up to 64 is one vint byte
    for (int i = 0; i < textLength; i++) {
      char c = text.charAt(i);
      if (c >= 0x80) {
        return false;
      }
      array[at + i] = (byte) c;
    }
    array[length] = (byte) textLength;
    length = at + textLength;
    return true;
  }

  /** Doubles the array (at least to {@code needed}): a batch of large texts copies it rarely. */
  private void grow(int needed) {
    bytes =
        Arrays.copyOf(
            bytes, Math.max(needed, (int) Math.min(Integer.MAX_VALUE - 8, 2L * bytes.length)));
  }

  /** Strings up to this long are checked and copied char by char, without an encoder's arrays. */
  private static final int SHORT_STRING = 64;

  /**
   * Writes {@code text} as {@link ByteBuffersDataOutput#writeString} does (its UTF-8 length, then
   * the bytes; an unpaired surrogate as U+FFFD), through the JDK's encoder where that gives the
   * same bytes: Lucene's encoder goes char by char, the JDK's copies an ASCII string at memory
   * speed. The JDK writes an unpaired surrogate as {@code ?}, one byte, so a one-byte-per-char
   * result is taken only when it reads back as the very text ({@link AsciiText#bytesOf}). A short
   * ASCII string (a host, a field's name or value) is written char by char: cheaper than the
   * encoder's two arrays.
   *
   * @return the number of UTF-8 bytes written
   */
  static int writeString(DataOutput out, String text) throws IOException {
    int length = text.length();
    if (length <= SHORT_STRING) {
      if (out instanceof WalOutput array) {
        if (array.writeShortAscii(text)) {
          return length;
        }
      } else {
        int ascii = 0;
        while (ascii < length && text.charAt(ascii) < 0x80) {
          ascii++;
        }
        if (ascii == length) {
          out.writeVInt(length);
          for (int i = 0; i < length; i++) {
            out.writeByte((byte) text.charAt(i));
          }
          return length;
        }
      }
    }
    byte[] utf8 = AsciiText.bytesOf(text);
    if (utf8 != null) {
      out.writeVInt(utf8.length);
      out.writeBytes(utf8, utf8.length);
      return utf8.length;
    }
    BytesRef lucene = new BytesRef(text);
    out.writeVInt(lucene.length);
    out.writeBytes(lucene.bytes, lucene.offset, lucene.length);
    return lucene.length;
  }
}
