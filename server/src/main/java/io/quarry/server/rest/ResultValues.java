package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.Values;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Renders typed values for the wire: as Splunk's REST API shows them (text, times in ISO-8601), or
 * typed for Quarry's JSON.
 */
final class ResultValues {
  private static final DateTimeFormatter SPLUNK_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx").withZone(ZoneOffset.UTC);

  private ResultValues() {}

  /** A typed value for JSON: numbers, booleans, text, lists; times as ISO-8601 text. */
  static Object typed(Block block, int position) {
    if (block.isNull(position)) {
      return null;
    }
    if (block.dataType() == DataType.TIMESTAMP) {
      return text(block, position);
    }
    return block.getObject(position);
  }

  /** The value at a position as text, or null when it is null. */
  static String text(Block block, int position) {
    if (block.isNull(position)) {
      return null;
    }
    if (block.dataType() == DataType.TIMESTAMP) {
      long micros = ((LongBlock) block).getLong(position);
      return SPLUNK_TIME.format(
          Instant.ofEpochSecond(
              Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L));
    }
    return Values.toText(block.getObject(position));
  }

  /** The column names of a schema, in order. */
  static java.util.List<String> names(io.quarry.plugin.api.data.Schema schema) {
    java.util.List<String> names = new java.util.ArrayList<>(schema.size());
    for (io.quarry.plugin.api.data.Schema.Column column : schema.columns()) {
      names.add(column.name());
    }
    return names;
  }

  /** Where each of {@code names} is in {@code schema}, -1 for a name it lacks. */
  static int[] columns(io.quarry.plugin.api.data.Schema schema, java.util.List<String> names) {
    int[] columns = new int[names.size()];
    for (int i = 0; i < columns.length; i++) {
      columns[i] = schema.indexOf(names.get(i));
    }
    return columns;
  }

  /** A row's values as text in the order of {@code columns} (null for -1 or a null value). */
  static java.util.List<String> texts(
      io.quarry.plugin.api.data.Page page, int position, int[] columns) {
    java.util.List<String> cells = new java.util.ArrayList<>(columns.length);
    for (int column : columns) {
      cells.add(column < 0 ? null : text(page.block(column), position));
    }
    return cells;
  }
}
