package io.quarry.client;

import java.io.IOException;

/**
 * A column of the schema of an Arrow stream ({@link ArrowPages}): its name, Quarry type, Arrow
 * type, dictionary, if encoded, and for a list column the type of its items (whose Quarry type is
 * the column's).
 */
record ArrowColumn(
    String name,
    String quarryType,
    int arrowType,
    int bitWidth,
    int timeUnit,
    Long dictionary,
    ArrowColumn item) {
  // Type union values (Schema.fbs)
  static final int INT = 2;
  static final int FLOATING_POINT = 3;
  static final int UTF8 = 5;
  static final int BOOL = 6;
  static final int TIMESTAMP = 10;
  static final int LIST = 12;

  /** A field of the schema (a list column's item field when {@code top} is false). */
  static ArrowColumn field(FlatTable field, boolean top) throws IOException {
    String name = field.string(0);
    int type = field.ubyte(2, 0);
    FlatTable details = field.table(3);
    FlatTable dictionary = field.table(4);
    Long dictionaryId = dictionary == null ? null : dictionary.int64(0, 0);
    int bitWidth = 0;
    int timeUnit = 0;
    ArrowColumn item = null;
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
      FlatTable indexType = dictionary.table(1);
      bitWidth = indexType == null ? 32 : indexType.int32(0, 32);
    }
    return new ArrowColumn(name, quarryType, type, bitWidth, timeUnit, dictionaryId, item);
  }
}
