package io.quarry.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the Apache Arrow IPC stream Quarry's search endpoint writes, without Arrow's library: the
 * schema message, dictionary batches (replacements and deltas) and record batches, each turned into
 * a {@link TypedResults} page. It reads the types Quarry writes — Int64, Float64, Bool, Utf8 (plain
 * or dictionary-encoded with integer indices), Timestamp, and a List of one of them (a multivalue
 * column: a list of several values becomes a {@code List}, a list of one its value, as in Quarry's
 * JSON) — from uncompressed buffers; anything else is an {@link IOException} naming it.
 *
 * <p>The stream is a sequence of messages: a 0xFFFFFFFF continuation marker, the length of a
 * FlatBuffers {@code Message}, the message, then its body; a zero length ends the stream. Tables
 * are read in place through their vtables ({@link FlatTable}); the body's buffers are located by
 * the batch's (offset, length) pairs, in the order of the schema's fields.
 */
final class ArrowPages implements ResultStream.PageReader {
  // Message.header_type values (Message.fbs)
  private static final int SCHEMA = 1;
  private static final int DICTIONARY_BATCH = 2;
  private static final int RECORD_BATCH = 3;

  private final InputStream in;
  private List<ArrowColumn> columns;
  private final Map<Long, String[]> dictionaries = new HashMap<>();
  private long offset;

  ArrowPages(InputStream in) {
    this.in = in;
  }

  @Override
  public TypedResults next() throws IOException {
    while (true) {
      Message message = readMessage();
      if (message == null) {
        return null;
      }
      switch (message.headerType) {
        case SCHEMA -> columns = schema(message.header);
        case DICTIONARY_BATCH -> dictionary(message);
        case RECORD_BATCH -> {
          if (columns == null) {
            throw new IOException("Arrow stream: a record batch before the schema");
          }
          return page(message.header, message.body);
        }
        default ->
            throw new IOException("Arrow stream: unexpected message type " + message.headerType);
      }
    }
  }

  @Override
  public List<String> messages() {
    return List.of();
  }

  @Override
  public void close() throws IOException {
    in.close();
  }

  private record Message(int headerType, FlatTable header, ByteBuffer body) {}

  /** The next message, or null at the end of the stream. */
  private Message readMessage() throws IOException {
    byte[] prefix = in.readNBytes(4);
    if (prefix.length == 0) {
      return null; // a stream may end without its end-of-stream marker
    }
    int length = littleEndianInt(prefix);
    if (length == -1) { // continuation marker, then the length
      length = littleEndianInt(readFully(4));
    }
    if (length == 0) {
      return null;
    }
    ByteBuffer metadata = ByteBuffer.wrap(readFully(length)).order(ByteOrder.LITTLE_ENDIAN);
    FlatTable message = FlatTable.root(metadata);
    int headerType = message.ubyte(1, 0);
    FlatTable header = message.table(2);
    long bodyLength = message.int64(3, 0);
    if (bodyLength < 0 || bodyLength > Integer.MAX_VALUE) {
      throw new IOException("Arrow stream: a message body of " + bodyLength + " bytes");
    }
    ByteBuffer body = ByteBuffer.wrap(readFully((int) bodyLength)).order(ByteOrder.LITTLE_ENDIAN);
    return new Message(headerType, header, body);
  }

  private List<ArrowColumn> schema(FlatTable schema) throws IOException {
    List<ArrowColumn> read = new ArrayList<>();
    int fields = schema.vectorLength(1);
    for (int i = 0; i < fields; i++) {
      read.add(ArrowColumn.field(schema.tableAt(1, i), true));
    }
    return read;
  }

  private void dictionary(Message message) throws IOException {
    long id = message.header.int64(0, 0);
    FlatTable batch = message.header.table(1);
    boolean delta = message.header.bool(2);
    if (columns == null
        || columns.stream().noneMatch(c -> c.dictionary() != null && c.dictionary() == id)) {
      throw new IOException("Arrow stream: dictionary " + id + " belongs to no column");
    }
    ArrowBuffers buffers = new ArrowBuffers(batch, message.body);
    int length = (int) batch.int64(0, 0);
    buffers.node();
    String[] values = new String[length];
    ByteBuffer validity = buffers.next();
    ByteBuffer offsets = buffers.next();
    ByteBuffer data = buffers.next();
    for (int row = 0; row < length; row++) {
      values[row] =
          ArrowBuffers.valid(validity, row) ? ArrowBuffers.utf8(offsets, data, row) : null;
    }
    if (delta && dictionaries.containsKey(id)) {
      String[] before = dictionaries.get(id);
      String[] joined = new String[before.length + values.length];
      System.arraycopy(before, 0, joined, 0, before.length);
      System.arraycopy(values, 0, joined, before.length, values.length);
      values = joined;
    }
    dictionaries.put(id, values);
  }

  private TypedResults page(FlatTable batch, ByteBuffer body) throws IOException {
    int rows = (int) batch.int64(0, 0);
    ArrowBuffers buffers = new ArrowBuffers(batch, body);
    List<List<Object>> values = new ArrayList<>(rows);
    for (int row = 0; row < rows; row++) {
      values.add(new ArrayList<>(columns.size()));
    }
    List<TypedResults.Column> schema = new ArrayList<>(columns.size());
    for (ArrowColumn column : columns) {
      schema.add(new TypedResults.Column(column.name(), column.quarryType()));
      buffers.node();
      ByteBuffer validity = buffers.next();
      if (column.dictionary() != null) {
        ByteBuffer indices = buffers.next();
        String[] dictionary = dictionaries.get(column.dictionary());
        if (dictionary == null) {
          throw new IOException("Arrow stream: no dictionary for column '" + column.name() + "'");
        }
        for (int row = 0; row < rows; row++) {
          values
              .get(row)
              .add(
                  ArrowBuffers.valid(validity, row)
                      ? dictionary[(int) ArrowBuffers.integer(indices, column, row)]
                      : null);
        }
        continue;
      }
      if (column.arrowType() == ArrowColumn.LIST) {
        ByteBuffer listOffsets = buffers.next();
        buffers.node();
        int items = rows == 0 ? 0 : listOffsets.getInt(rows * 4);
        Object[] itemValues = ArrowBuffers.values(column.item(), buffers, items);
        for (int row = 0; row < rows; row++) {
          Object value = null;
          if (ArrowBuffers.valid(validity, row)) {
            int start = listOffsets.getInt(row * 4);
            int end = listOffsets.getInt(row * 4 + 4);
            value =
                end - start == 1
                    ? itemValues[start]
                    : java.util.Collections.unmodifiableList(
                        java.util.Arrays.asList(
                            java.util.Arrays.copyOfRange(itemValues, start, end)));
          }
          values.get(row).add(value);
        }
        continue;
      }
      Object[] columnValues = ArrowBuffers.values(column, validity, buffers, rows);
      for (int row = 0; row < rows; row++) {
        values.get(row).add(columnValues[row]);
      }
    }
    TypedResults page = new TypedResults(schema, values, offset, offset + rows, true);
    offset += rows;
    return page;
  }

  private byte[] readFully(int length) throws IOException {
    byte[] bytes = in.readNBytes(length);
    if (bytes.length != length) {
      throw new EOFException("Arrow stream: cut off inside a message");
    }
    return bytes;
  }

  private static int littleEndianInt(byte[] bytes) throws IOException {
    if (bytes.length != 4) {
      throw new EOFException("Arrow stream: cut off inside a message length");
    }
    return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }
}
