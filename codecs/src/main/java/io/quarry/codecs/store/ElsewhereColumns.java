package io.quarry.codecs.store;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * The columns of one block document that its payload does not hold ({@link BlockEvents}: a field of
 * which every event has one value or none, kept in the block's doc values), each read through the
 * segment's {@link BlockColumns} when first asked for and kept by field name for the block's later
 * asks. Two reads share what they read: {@link #counted} answers from the doc values alone while
 * the payload is not decoded, and remembers also that a field cannot be so answered; {@link #read}
 * reads a column the decoded payload says is elsewhere, and returns one {@link #counted} already
 * read.
 */
final class ElsewhereColumns {
  private final BlockColumns columns;
  private final int blockDoc;
  private final Map<String, BlockColumns.Values> read = new HashMap<>(); // null values: not counted

  ElsewhereColumns(BlockColumns columns, int blockDoc) {
    this.columns = columns;
    this.blockDoc = blockDoc;
  }

  /**
   * The column of {@code name} from the block's doc values without its payload, or null when they
   * do not give every one of its {@code count} events exactly one value of it (see {@link
   * BlockColumns#readIfCounted}).
   */
  BlockColumns.Values counted(String name, int count) throws IOException {
    if (read.containsKey(name)) {
      return read.get(name);
    }
    BlockColumns.Values values = columns.readIfCounted(blockDoc, name, count);
    read.put(name, values);
    return values;
  }

  /** The column of {@code name}, which the block holds elsewhere, of {@code count} events. */
  BlockColumns.Values read(String name, int count) throws IOException {
    BlockColumns.Values values = read.get(name);
    if (values == null) {
      values = columns.read(blockDoc, name, count);
      read.put(name, values);
    }
    return values;
  }
}
