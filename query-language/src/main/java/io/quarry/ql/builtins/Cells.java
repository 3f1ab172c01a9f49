package io.quarry.ql.builtins;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.exec.PluginOperators;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Block and page plumbing the built-in page operators share: values of a position, new columns from
 * Java values typed as a search types them, copies of chosen positions.
 */
final class Cells {
  /** The hidden row-id column an input page carries; a command passes it on and never reads it. */
  static final String ROW = PluginOperators.ROW_COLUMN;

  private Cells() {}

  /**
   * A position's values as a computation reads them: Long, Double, Boolean, String; a {@link
   * DataType#TIMESTAMP}'s as Splunk's epoch seconds.
   */
  static List<Object> values(Block block, int position) {
    List<Object> values = Values.valuesOf(block, position);
    if (block.dataType() == DataType.TIMESTAMP && !values.isEmpty()) {
      List<Object> seconds = new ArrayList<>(values.size());
      for (Object value : values) {
        seconds.add(TimeField.secondsOf((Long) value));
      }
      return seconds;
    }
    return values;
  }

  /** A value as text, as Splunk shows it (a whole double without {@code .0}). */
  static String text(Object value) {
    return Values.toText(value);
  }

  /** Rough heap bytes of a value held in operator state, for the memory account. */
  static long bytes(Object value) {
    return value instanceof String s ? 40L + 2L * s.length() : 24L;
  }

  /**
   * A position's fields that hold values, each with its values ({@link #values}; with {@code
   * stored}, as the block stores them: a {@link DataType#TIMESTAMP}'s microseconds).
   */
  static Map<String, List<Object>> row(
      Page page, List<String> names, int position, boolean stored) {
    Map<String, List<Object>> row = new HashMap<>();
    for (String name : names) {
      Block block = page.block(name);
      List<Object> values = stored ? Values.valuesOf(block, position) : values(block, position);
      if (!values.isEmpty()) {
        row.put(name, values);
      }
    }
    return row;
  }

  /** Rough heap bytes of a row held in operator state ({@link #bytes(Object)} of each value). */
  static long bytes(Map<String, List<Object>> row) {
    long bytes = 64;
    for (List<Object> values : row.values()) {
      for (Object value : values) {
        bytes += bytes(value);
      }
    }
    return bytes;
  }

  /** The column names of a page other than the hidden row column, in order. */
  static List<String> fieldNames(Page page) {
    List<String> names = new ArrayList<>(page.schema().size());
    for (Schema.Column column : page.schema().columns()) {
      if (!column.name().equals(ROW)) {
        names.add(column.name());
      }
    }
    return names;
  }

  /**
   * A column built from Java values position by position, typed by all of them as a search types a
   * field: only longs a long column ({@code _time} a timestamp), numbers a double one, only
   * booleans a boolean one, anything else text.
   */
  static final class Column {
    private final List<Object> values = new ArrayList<>();
    private int[] counts = new int[16];
    private int positions;

    /** A column of one position holding {@code value}. */
    static Column of(Object value) {
      Column column = new Column();
      column.add(value);
      return column;
    }

    /** Appends a position holding {@code cell}'s values (none: a null). */
    void add(List<?> cell) {
      values.addAll(cell);
      count(cell.size());
    }

    /** Appends a position of one value, or a null for null. */
    void add(Object value) {
      if (value == null) {
        count(0);
      } else {
        values.add(value);
        count(1);
      }
    }

    int positions() {
      return positions;
    }

    private void count(int count) {
      if (positions == counts.length) {
        counts = Arrays.copyOf(counts, positions * 2);
      }
      counts[positions++] = count;
    }

    Block build(BlockFactory factory, String name) {
      DataType type = type(name);
      switch (type) {
        case LONG, TIMESTAMP -> {
          LongBlock.Builder builder =
              type == DataType.TIMESTAMP
                  ? factory.newTimestampBlockBuilder(positions)
                  : factory.newLongBlockBuilder(positions);
          appendTo(
              builder::appendNull,
              builder::beginPositionEntry,
              builder::endPositionEntry,
              v -> builder.append((Long) v));
          return builder.build();
        }
        case DOUBLE -> {
          DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(positions);
          appendTo(
              builder::appendNull,
              builder::beginPositionEntry,
              builder::endPositionEntry,
              v -> builder.append(((Number) v).doubleValue()));
          return builder.build();
        }
        case BOOLEAN -> {
          BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(positions);
          appendTo(
              builder::appendNull,
              builder::beginPositionEntry,
              builder::endPositionEntry,
              v -> builder.append((Boolean) v));
          return builder.build();
        }
        default -> {
          BytesBlock.Builder builder = factory.newBytesBlockBuilder(positions);
          appendTo(
              builder::appendNull,
              builder::beginPositionEntry,
              builder::endPositionEntry,
              v -> builder.append(text(v)));
          return builder.build();
        }
      }
    }

    /**
     * The positions given to a builder of the column's type: a null, one value, or a position entry
     * of its values (the values here are Java objects: a cold path, so one loop for every type).
     */
    private void appendTo(
        Runnable appendNull,
        Runnable beginPositionEntry,
        Runnable endPositionEntry,
        Consumer<Object> append) {
      int next = 0;
      for (int p = 0; p < positions; p++) {
        int count = counts[p];
        if (count == 0) {
          appendNull.run();
        } else if (count == 1) {
          append.accept(values.get(next++));
        } else {
          beginPositionEntry.run();
          for (int i = 0; i < count; i++) {
            append.accept(values.get(next++));
          }
          endPositionEntry.run();
        }
      }
    }

    private DataType type(String name) {
      if (values.isEmpty()) {
        return DataType.STRING; // all null: as a search types a column without values
      }
      boolean anyLong = false;
      boolean anyDouble = false;
      boolean anyBoolean = false;
      for (Object value : values) {
        switch (value) {
          case Long l -> anyLong = true;
          case Double d -> anyDouble = true;
          case Boolean b -> anyBoolean = true;
          default -> {
            return DataType.STRING;
          }
        }
      }
      if (anyBoolean) {
        return anyLong || anyDouble ? DataType.STRING : DataType.BOOLEAN;
      }
      if (anyDouble) {
        return DataType.DOUBLE;
      }
      return anyLong && TimeField.is(name) ? DataType.TIMESTAMP : DataType.LONG;
    }
  }

  /** The columns' blocks, named {@code names}, built all or none ({@link #allOrNone}). */
  static List<Block> build(BlockFactory factory, List<String> names, List<Column> columns) {
    return allOrNone(factory, columns.size(), i -> columns.get(i).build(factory, names.get(i)));
  }

  /**
   * Blocks {@code 0 … count-1}, each made by {@code block}, built all or none: over the memory
   * limit, the blocks built before the failing one are released again (nothing holds them yet).
   */
  static List<Block> allOrNone(BlockFactory factory, int count, IntFunction<Block> block) {
    List<Block> blocks = new ArrayList<>(count);
    try {
      for (int i = 0; i < count; i++) {
        blocks.add(block.apply(i));
      }
    } catch (RuntimeException e) {
      blocks.forEach(factory::release);
      throw e;
    }
    return blocks;
  }

  /**
   * {@code page} with the columns added or replacing those of their names, built all before any
   * replaces: over the memory limit, {@code page} stays whole (none of its blocks released).
   */
  static Page withColumns(
      BlockFactory factory, Page page, List<String> names, List<Column> columns) {
    List<Block> blocks = build(factory, names, columns);
    Page out = page;
    for (int i = 0; i < blocks.size(); i++) {
      out = factory.withColumn(out, names.get(i), blocks.get(i));
    }
    return out;
  }

  /** A page of named blocks (equal lengths), in the given order. */
  static Page page(List<String> names, List<Block> blocks, int positions) {
    List<Schema.Column> columns = new ArrayList<>(names.size());
    for (int i = 0; i < names.size(); i++) {
      columns.add(new Schema.Column(names.get(i), blocks.get(i).dataType()));
    }
    return new Page(new Schema(columns), blocks, positions);
  }
}
