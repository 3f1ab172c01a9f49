package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.Arrays;
import java.util.List;

/**
 * Encodes result rows as the export endpoint's lines, {@code
 * {"preview":false,"offset":N[,"lastrow":true],"result":{"field":"text",…}}\n}, UTF-8 bytes
 * straight into a growable array: no JSON generator per row and no {@code String} per number. A
 * wide {@code mstats} answer is hundreds of thousands of numbers, and a generator per row plus its
 * field-name and raw-value bookkeeping cost about as much as the numbers' digits.
 *
 * <p>The bytes are the ones Jackson's {@code UTF8JsonGenerator} writes with its default features
 * (what the endpoint wrote before): {@code "} and {@code \} escaped, control characters as {@code
 * \b \t \n \f \r} or a six-character escape (backslash, u, four upper-case hex digits), every other
 * character as UTF-8 except surrogates, each written as such an escape. {@code
 * ResultLineEncoderTest} holds it to Jackson's output.
 *
 * <p>Not thread-safe: one encoder per thread; {@link #schema} fixes the column names of the rows
 * that follow.
 */
final class ResultLineEncoder {
  private static final byte[] HEX =
      "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] START = ascii("{\"preview\":false,\"offset\":");
  private static final byte[] LAST = ascii(",\"lastrow\":true");
  private static final byte[] RESULT = ascii(",\"result\":{");
  private static final byte[] END = ascii("}}\n");

  private final SplunkNumberText numbers = new SplunkNumberText();
  private byte[] bytes;
  private int size;
  private Schema namesOf;
  private byte[][] names; // per column: "name": (with the comma before it for every column)
  private Page blocksOf;
  private Block[] blocks;

  ResultLineEncoder(int capacity) {
    bytes = new byte[Math.max(64, capacity)];
  }

  /** The bytes written so far, from index 0 up to {@link #size}. */
  byte[] bytes() {
    return bytes;
  }

  int size() {
    return size;
  }

  /** Forgets what was written (the array is kept for the next lines). */
  void reset() {
    size = 0;
  }

  /** Appends bytes made elsewhere (a message line). */
  void append(byte[] more, int from, int length) {
    ensure(length);
    System.arraycopy(more, from, bytes, size, length);
    size += length;
  }

  /** The line of the row at {@code position} of {@code page}, as its {@code offset}-th result. */
  void row(Page page, int position, long offset, boolean last) {
    byte[][] names = names(page.schema());
    append(START, 0, START.length);
    appendLong(offset);
    if (last) {
      append(LAST, 0, LAST.length);
    }
    append(RESULT, 0, RESULT.length);
    Block[] blocks = blocks(page);
    boolean first = true;
    for (int column = 0; column < names.length; column++) {
      Block block = blocks[column];
      int count = block.getValueCount(position);
      if (count == 0) {
        continue; // a null: no field, as Splunk leaves it out
      }
      byte[] name = names[column];
      if (first) {
        append(name, 1, name.length - 1); // without the comma
        first = false;
      } else {
        append(name, 0, name.length);
      }
      if (count == 1 && block instanceof DoubleBlock doubles) {
        number(doubles.getDoubleValue(block.getFirstValueIndex(position)));
      } else if (count == 1
          && block instanceof LongBlock longs
          && block.dataType() != DataType.TIMESTAMP) {
        ensure(22);
        bytes[size++] = '"';
        appendLong(longs.getLongValue(block.getFirstValueIndex(position)));
        bytes[size++] = '"';
      } else if (count == 1) {
        string(ResultValues.valueText(block, block.getFirstValueIndex(position)));
      } else {
        List<?> values = (List<?>) ResultValues.splunk(block, position);
        ensure(1);
        bytes[size++] = '[';
        for (int i = 0; i < values.size(); i++) {
          if (i > 0) {
            ensure(1);
            bytes[size++] = ',';
          }
          string((String) values.get(i));
        }
        ensure(1);
        bytes[size++] = ']';
      }
    }
    append(END, 0, END.length);
  }

  private void number(double value) {
    ensure(SplunkNumberText.MAX_BYTES);
    size = numbers.quoted(value, bytes, size);
  }

  private void appendLong(long value) {
    ensure(20);
    if (value == Long.MIN_VALUE) {
      byte[] text = ascii(Long.toString(value));
      append(text, 0, text.length);
      return;
    }
    if (value < 0) {
      bytes[size++] = '-';
      value = -value;
    }
    int digits = 1;
    for (long rest = value; rest >= 10; rest /= 10) {
      digits++;
    }
    for (int at = size + digits - 1; at >= size; at--) {
      bytes[at] = (byte) ('0' + value % 10);
      value /= 10;
    }
    size += digits;
  }

  /** {@code text} as a JSON string, escaped as Jackson escapes it. */
  private void string(String text) {
    ensure(text.length() * 6 + 2); // the most one char can take: a six-byte escape
    byte[] out = bytes;
    int at = size;
    out[at++] = '"';
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          out[at++] = (byte) c;
          continue;
        }
        out[at++] = '\\';
        switch (c) {
          case '"' -> out[at++] = '"';
          case '\\' -> out[at++] = '\\';
          case '\b' -> out[at++] = 'b';
          case '\t' -> out[at++] = 't';
          case '\n' -> out[at++] = 'n';
          case '\f' -> out[at++] = 'f';
          case '\r' -> out[at++] = 'r';
          default -> at = unicodeEscape(out, at, c);
        }
      } else if (c < 0x800) {
        out[at++] = (byte) (0xC0 | (c >> 6));
        out[at++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        out[at++] = '\\';
        at = unicodeEscape(out, at, c);
      } else {
        out[at++] = (byte) (0xE0 | (c >> 12));
        out[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        out[at++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    out[at++] = '"';
    size = at;
  }

  /** {@code u} and four hex digits (the backslash already written). */
  private static int unicodeEscape(byte[] out, int at, char c) {
    out[at++] = 'u';
    out[at++] = HEX[(c >> 12) & 0xF];
    out[at++] = HEX[(c >> 8) & 0xF];
    out[at++] = HEX[(c >> 4) & 0xF];
    out[at++] = HEX[c & 0xF];
    return at;
  }

  /** The page's blocks in an array, taken once for all its rows. */
  private Block[] blocks(Page page) {
    if (page != blocksOf) {
      Block[] taken = new Block[page.schema().size()];
      for (int column = 0; column < taken.length; column++) {
        taken[column] = page.block(column);
      }
      blocks = taken;
      blocksOf = page;
    }
    return blocks;
  }

  /** The schema's column names as {@code ,"name":}, encoded once for all its rows. */
  private byte[][] names(Schema schema) {
    if (schema != namesOf) {
      byte[][] encoded = new byte[schema.size()][];
      for (int column = 0; column < encoded.length; column++) {
        int mark = size;
        ensure(1);
        bytes[size++] = ',';
        string(schema.column(column).name());
        ensure(1);
        bytes[size++] = ':';
        encoded[column] = Arrays.copyOfRange(bytes, mark, size);
        size = mark;
      }
      names = encoded;
      namesOf = schema;
    }
    return names;
  }

  private void ensure(int more) {
    if (size + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(size + more, bytes.length * 2));
    }
  }

  private static byte[] ascii(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }
}
