package io.quarry.client;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
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
 * are read in place through their vtables ({@link Table}); the body's buffers are located by the
 * batch's (offset, length) pairs, in the order of the schema's fields.
 */
final class ArrowPages implements ResultStream.PageReader {
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx").withZone(ZoneOffset.UTC);

  // Message.header_type values (Message.fbs)
  private static final int SCHEMA = 1;
  private static final int DICTIONARY_BATCH = 2;
  private static final int RECORD_BATCH = 3;

  // Type union values (Schema.fbs)
  private static final int INT = 2;
  private static final int FLOATING_POINT = 3;
  private static final int UTF8 = 5;
  private static final int BOOL = 6;
  private static final int TIMESTAMP = 10;
  private static final int LIST = 12;

  private final InputStream in;
  private List<ColumnType> columns;
  private final Map<Long, String[]> dictionaries = new HashMap<>();
  private long offset;

  /**
   * A column of the schema: its name, Quarry type, Arrow type, dictionary, if encoded, and for a
   * list column the type of its items (whose Quarry type is the column's).
   */
  private record ColumnType(
      String name,
      String quarryType,
      int arrowType,
      int bitWidth,
      int timeUnit,
      Long dictionary,
      ColumnType item) {}

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

  private record Message(int headerType, Table header, ByteBuffer body) {}

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
    Table message = Table.root(metadata);
    int headerType = message.ubyte(1, 0);
    Table header = message.table(2);
    long bodyLength = message.int64(3, 0);
    if (bodyLength < 0 || bodyLength > Integer.MAX_VALUE) {
      throw new IOException("Arrow stream: a message body of " + bodyLength + " bytes");
    }
    ByteBuffer body = ByteBuffer.wrap(readFully((int) bodyLength)).order(ByteOrder.LITTLE_ENDIAN);
    return new Message(headerType, header, body);
  }

  private List<ColumnType> schema(Table schema) throws IOException {
    List<ColumnType> read = new ArrayList<>();
    int fields = schema.vectorLength(1);
    for (int i = 0; i < fields; i++) {
      read.add(field(schema.tableAt(1, i), true));
    }
    return read;
  }

  /** A field of the schema (a list column's item field when {@code top} is false). */
  private static ColumnType field(Table field, boolean top) throws IOException {
    String name = field.string(0);
    int type = field.ubyte(2, 0);
    Table details = field.table(3);
    Table dictionary = field.table(4);
    Long dictionaryId = dictionary == null ? null : dictionary.int64(0, 0);
    int bitWidth = 0;
    int timeUnit = 0;
    ColumnType item = null;
    String quarryType;
    switch (type) {
      case INT -> {
        bitWidth = details.int32(0, 0);
        quarryType = "long";
      }
      case FLOATING_POINT -> {
        if (details.int16(0, 0) != 2) {
          throw new IOException("Arrow stream: column '" + name + "' is not a double");
        }
        quarryType = "double";
      }
      case UTF8 -> quarryType = "string";
      case BOOL -> quarryType = "boolean";
      case TIMESTAMP -> {
        timeUnit = details.int16(0, 0);
        quarryType = "timestamp";
      }
      case LIST -> {
        if (!top || field.vectorLength(5) != 1) {
          throw new IOException("Arrow stream: list column '" + name + "' is not a list of values");
        }
        item = field(field.tableAt(5, 0), false);
        if (item.dictionary() != null) {
          throw new IOException("Arrow stream: list column '" + name + "' has dictionary items");
        }
        quarryType = item.quarryType();
      }
      default ->
          throw new IOException(
              "Arrow stream: column '" + name + "' has type " + type + ", not one Quarry writes");
    }
    if (dictionaryId != null) {
      if (type != UTF8) {
        throw new IOException("Arrow stream: dictionary column '" + name + "' is not Utf8");
      }
      Table indexType = dictionary.table(1);
      bitWidth = indexType == null ? 32 : indexType.int32(0, 32);
    }
    return new ColumnType(name, quarryType, type, bitWidth, timeUnit, dictionaryId, item);
  }

  private void dictionary(Message message) throws IOException {
    long id = message.header.int64(0, 0);
    Table batch = message.header.table(1);
    boolean delta = message.header.bool(2);
    if (columns == null
        || columns.stream().noneMatch(c -> c.dictionary() != null && c.dictionary() == id)) {
      throw new IOException("Arrow stream: dictionary " + id + " belongs to no column");
    }
    Buffers buffers = new Buffers(batch, message.body);
    int length = (int) batch.int64(0, 0);
    buffers.node();
    String[] values = new String[length];
    ByteBuffer validity = buffers.next();
    ByteBuffer offsets = buffers.next();
    ByteBuffer data = buffers.next();
    for (int row = 0; row < length; row++) {
      values[row] = valid(validity, row) ? utf8(offsets, data, row) : null;
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

  private TypedResults page(Table batch, ByteBuffer body) throws IOException {
    int rows = (int) batch.int64(0, 0);
    Buffers buffers = new Buffers(batch, body);
    List<List<Object>> values = new ArrayList<>(rows);
    for (int row = 0; row < rows; row++) {
      values.add(new ArrayList<>(columns.size()));
    }
    List<TypedResults.Column> schema = new ArrayList<>(columns.size());
    for (ColumnType column : columns) {
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
              .add(valid(validity, row) ? dictionary[(int) integer(indices, column, row)] : null);
        }
        continue;
      }
      if (column.arrowType() == LIST) {
        ByteBuffer listOffsets = buffers.next();
        buffers.node();
        int items = rows == 0 ? 0 : listOffsets.getInt(rows * 4);
        Object[] itemValues = values(column.item(), buffers, items);
        for (int row = 0; row < rows; row++) {
          Object value = null;
          if (valid(validity, row)) {
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
      Object[] columnValues = values(column, validity, buffers, rows);
      for (int row = 0; row < rows; row++) {
        values.get(row).add(columnValues[row]);
      }
    }
    TypedResults page = new TypedResults(schema, values, offset, offset + rows, true);
    offset += rows;
    return page;
  }

  /** The values of a plain column (not dictionary-encoded, not a list) whose node comes next. */
  private static Object[] values(ColumnType column, Buffers buffers, int length)
      throws IOException {
    return values(column, buffers.next(), buffers, length);
  }

  /** The values of a plain column whose validity buffer was read. */
  private static Object[] values(
      ColumnType column, ByteBuffer validity, Buffers buffers, int length) throws IOException {
    Object[] values = new Object[length];
    switch (column.arrowType()) {
      case UTF8 -> {
        ByteBuffer offsets = buffers.next();
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? utf8(offsets, data, row) : null;
        }
      }
      case INT -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? integer(data, column, row) : null;
        }
      }
      case FLOATING_POINT -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? data.getDouble(row * 8) : null;
        }
      }
      case BOOL -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? bit(data, row) : null;
        }
      }
      case TIMESTAMP -> {
        ByteBuffer data = buffers.next();
        for (int row = 0; row < length; row++) {
          values[row] = valid(validity, row) ? time(data.getLong(row * 8), column) : null;
        }
      }
      default -> throw new IOException("Arrow stream: type " + column.arrowType());
    }
    return values;
  }

  /** The buffers of one batch, handed out in order; the field nodes are counted beside them. */
  private static final class Buffers {
    private final Table batch;
    private final ByteBuffer body;
    private int buffer;
    private int node;

    Buffers(Table batch, ByteBuffer body) throws IOException {
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
      long start = batch.buffer.getLong(struct);
      long length = batch.buffer.getLong(struct + 8);
      if (start < 0 || length < 0 || start + length > body.capacity()) {
        throw new IOException("Arrow stream: a buffer outside its message body");
      }
      return body.slice((int) start, (int) length).order(ByteOrder.LITTLE_ENDIAN);
    }
  }

  private static boolean valid(ByteBuffer validity, int row) {
    return validity.capacity() == 0 || bit(validity, row); // no bitmap: every value is present
  }

  private static boolean bit(ByteBuffer bits, int row) {
    return (bits.get(row >>> 3) & (1 << (row & 7))) != 0;
  }

  private static long integer(ByteBuffer data, ColumnType column, int row) throws IOException {
    return switch (column.bitWidth()) {
      case 8 -> data.get(row);
      case 16 -> data.getShort(row * 2);
      case 32 -> data.getInt(row * 4);
      case 64 -> data.getLong(row * 8);
      default -> throw new IOException("Arrow stream: integers of " + column.bitWidth() + " bits");
    };
  }

  private static String utf8(ByteBuffer offsets, ByteBuffer data, int row) {
    int start = offsets.getInt(row * 4);
    int end = offsets.getInt(row * 4 + 4);
    byte[] bytes = new byte[end - start];
    data.get(start, bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** A timestamp as Quarry's JSON writes it: ISO-8601 with milliseconds, UTC. */
  private static String time(long value, ColumnType column) {
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

  /**
   * A FlatBuffers table read in place: its vtable gives each field's offset inside the table (0:
   * absent, the default applies); references (tables, vectors, strings) are unsigned offsets
   * relative to where they are stored.
   */
  private record Table(ByteBuffer buffer, int position) {
    static Table root(ByteBuffer buffer) {
      return new Table(buffer, buffer.getInt(0));
    }

    private int field(int id) {
      int vtable = position - buffer.getInt(position);
      int vtableLength = Short.toUnsignedInt(buffer.getShort(vtable));
      int slot = 4 + id * 2;
      return slot < vtableLength ? Short.toUnsignedInt(buffer.getShort(vtable + slot)) : 0;
    }

    private int reference(int id) {
      int field = field(id);
      return field == 0 ? -1 : position + field + buffer.getInt(position + field);
    }

    int ubyte(int id, int fallback) {
      int field = field(id);
      return field == 0 ? fallback : Byte.toUnsignedInt(buffer.get(position + field));
    }

    boolean bool(int id) {
      return ubyte(id, 0) != 0;
    }

    int int16(int id, int fallback) {
      int field = field(id);
      return field == 0 ? fallback : buffer.getShort(position + field);
    }

    int int32(int id, int fallback) {
      int field = field(id);
      return field == 0 ? fallback : buffer.getInt(position + field);
    }

    long int64(int id, long fallback) {
      int field = field(id);
      return field == 0 ? fallback : buffer.getLong(position + field);
    }

    Table table(int id) {
      int target = reference(id);
      return target < 0 ? null : new Table(buffer, target);
    }

    String string(int id) {
      int target = reference(id);
      if (target < 0) {
        return null;
      }
      byte[] bytes = new byte[buffer.getInt(target)];
      buffer.get(target + 4, bytes);
      return new String(bytes, StandardCharsets.UTF_8);
    }

    int vectorLength(int id) {
      int target = reference(id);
      return target < 0 ? 0 : buffer.getInt(target);
    }

    /** Where element {@code index} of a vector of structs {@code size} bytes wide starts. */
    int vectorElement(int id, int index, int size) {
      return reference(id) + 4 + index * size;
    }

    /** Element {@code index} of a vector of tables. */
    Table tableAt(int id, int index) {
      int element = vectorElement(id, index, 4);
      return new Table(buffer, element + buffer.getInt(element));
    }
  }
}
