package io.quarry.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A FlatBuffers table read in place: its vtable gives each field's offset inside the table (0:
 * absent, the default applies); references (tables, vectors, strings) are unsigned offsets relative
 * to where they are stored.
 */
record FlatTable(ByteBuffer buffer, int position) {
  static FlatTable root(ByteBuffer buffer) {
    return new FlatTable(buffer, buffer.getInt(0));
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

  FlatTable table(int id) {
    int target = reference(id);
    return target < 0 ? null : new FlatTable(buffer, target);
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
  FlatTable tableAt(int id, int index) {
    int element = vectorElement(id, index, 4);
    return new FlatTable(buffer, element + buffer.getInt(element));
  }
}
