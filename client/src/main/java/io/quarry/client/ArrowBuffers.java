package io.quarry.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * The buffers of one Arrow batch of {@link ArrowPages}, handed out in order (the field nodes are
 * counted beside them), and the values of a column read out of them: bit-packed validity and
 * booleans, little-endian integers of 8 to 64 bits, doubles, UTF-8 by offsets, timestamps.
 */
final class ArrowBuffers {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx").withZone(ZoneOffset.UTC);

  private final FlatTable batch;
  private final ByteBuffer body;
  private int buffer;
  private int node;

  ArrowBuffers(FlatTable batch, ByteBuffer body) throws IOException {
    if (batch.table(3) != null) {
      throw new IOException(
          "Arrow stream: compressed buffers; this client reads uncompressed streams only");
    }
    this.batch = batch;
    this.body = body;
  }

  void node() throws IOException {
    if (node++ >= batch.vectorLength(1)) {
      throw new IOException("Arrow stream: fewer field nodes than columns");
    }
  }

  ByteBuffer next() throws IOException {
    if (buffer >= batch.vectorLength(2)) {
      throw new IOException("Arrow stream: fewer buffers than the schema needs");
    }
    int struct = batch.vectorElement(2, buffer++, 16);
    long start = batch.buffer().getLong(struct);
    long length = batch.buffer().getLong(struct + 8);
    if (start < 0 || length < 0 || start + length > body.capacity()) {
      throw new IOException("Arrow stream: a buffer outside its message body");
    }
    return body.slice((int) start, (int) length).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** The values of a plain column (not dictionary-encoded, not a list) whose node comes next. */
  static Object[] values(ArrowColumn column, ArrowBuffers buffers, int length) throws IOException {
    return values(column, buffers.next(), buffers, length);
  }

  /** The values of a plain column whose validity buffer was read. */
  static Object[] values(ArrowColumn column, ByteBuffer validity, ArrowBuffers buffers, int length)
      throws IOException {
    Object[] values = new Object[length];
    switch (column.arrowType()) {
      case ArrowColumn.UTF8 -> {
        ByteBuffer offsets = buffers.next();
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? utf8(offsets, data, row) : null;
        }
      }
      case ArrowColumn.INT -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? integer(data, column, row) : null;
        }
      }
      case ArrowColumn.FLOATING_POINT -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? data.getDouble(row * 8) : null;
        }
      }
      case ArrowColumn.BOOL -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? bit(data, row) : null;
        }
      }
      case ArrowColumn.TIMESTAMP -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? time(data.getLong(row * 8), column) : null;
        }
      }
      default -> throw new IOException("Arrow stream: type " + column.arrowType());
    }
    return values;
  }

  static boolean valid(ByteBuffer validity, int row) {
    return validity.capacity() == 0 || bit(validity, row); // no bitmap: every value is present
  }

  private static boolean bit(ByteBuffer bits, int row) {
    return (bits.get(row >>> 3) & (1 << (row & 7))) != 0;
  }

  static long integer(ByteBuffer data, ArrowColumn column, int row) throws IOException {
    return switch (column.bitWidth()) {
      case 8 -> data.get(row);
      case 16 -> data.getShort(row * 2);
      case 32 -> data.getInt(row * 4);
      case 64 -> data.getLong(row * 8);
      default -> throw new IOException("Arrow stream: integers of " + column.bitWidth() + " bits");
    };
  }

  static String utf8(ByteBuffer offsets, ByteBuffer data, int row) {
    int start = offsets.getInt(row * 4);
    int end = offsets.getInt(row * 4 + 4);
    byte[] bytes = new byte[end - start];
    data.get(start, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** A timestamp as Quarry's JSON writes it: ISO-8601 with milliseconds, UTC. */
  private static String time(long value, ArrowColumn column) {
    Instant instant =
        switch (column.timeUnit()) {
          case 0 -> Instant.ofEpochSecond(value);
          case 1 -> Instant.ofEpochMilli(value);
          case 2 ->
              Instant.ofEpochSecond(
                  Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1_000L);
          default ->
              Instant.ofEpochSecond(
                  Math.floorDiv(value, 1_000_000_000L), Math.floorMod(value, 1_000_000_000L));
        };
    return TIME.format(instant);
  }
}
