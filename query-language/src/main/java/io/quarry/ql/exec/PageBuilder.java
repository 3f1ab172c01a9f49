package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Typed pages from cells (generators, answers, listings, tests): {@link #toPage} types a column
 * from its values — all longs make a long column, longs and doubles a double column, booleans a
 * boolean column, anything else a string column; {@code _time} holds epoch microseconds and is a
 * timestamp column. A field with several values at a position is a position with several values,
 * typed with the rest of the column's values (a multivalue of longs in a long column; one that
 * mixes numbers and text makes the column text).
 */
public final class PageBuilder {
  public static final String TIME_FIELD = "_time";

  private PageBuilder() {}

  /**
   * A page of {@code positions} rows given column by column: {@code columns.get(i)} holds column
   * {@code names.get(i)}'s cells, each the values of one position (none: null). Each column is
   * typed by this class's rules, over all its cells.
   */
  public static Page toPage(List<String> names, List<List<List<Object>>> columns, int positions) {
    List<Schema.Column> schema = new ArrayList<>();
    List<Block> blocks = new ArrayList<>();
    for (int c = 0; c < names.size(); c++) {
      String name = names.get(c);
      List<List<Object>> cells = columns.get(c);
      List<Object> values = new ArrayList<>(positions);
      for (List<Object> cell : cells) {
        values.addAll(cell);
      }
      DataType type = inferType(name, values);
      schema.add(new Schema.Column(name, type));
      blocks.add(block(type, cells));
    }
    return new Page(new Schema(schema), blocks, positions);
  }

  /**
   * A column of cells (a position's values each: none is a null, several a multivalue), typed as
   * this class types a field's values.
   */
  public static Block column(String name, List<List<Object>> cells) {
    List<Object> values = new ArrayList<>();
    cells.forEach(values::addAll);
    return block(inferType(name, values), cells);
  }

  private static DataType inferType(String name, List<Object> values) {
    ColumnTyping typing = new ColumnTyping();
    for (Object value : values) {
      typing.add(value);
    }
    return typing.type(name);
  }

  /**
   * This class's typing rule, fed a column's values one at a time (a multivalue's values each):
   * only longs make a long column ({@code _time} a timestamp), longs and doubles a double column
   * unless a long past 2^53 would be rounded there, only booleans a boolean column; anything else,
   * booleans mixed with numbers, a long past 2^53 beside a double, or no value at all a string
   * column, whose numbers are tagged as such ({@code BytesBlock.appendNumber}: a number keeps its
   * type and every digit whatever shares its page). Whoever writes a column from values ({@code
   * eval}'s {@code ColumnBlocks}) types it by this rule.
   */
  public static final class ColumnTyping {
    /** 2^53: a long of greater magnitude may not survive a double block. */
    private static final long DOUBLE_EXACT = 1L << 53;

    private boolean anyLong;
    private boolean anyLongPastDouble;
    private boolean anyDouble;
    private boolean anyBoolean;
    private boolean anyOther;

    /** Counts one value (a null counts nothing). */
    public void add(Object value) {
      switch (value) {
        case null -> {}
        case Long l -> addLong(l);
        case Double d -> anyDouble = true;
        case Boolean b -> anyBoolean = true;
        default -> anyOther = true;
      }
    }

    /**
     * Counts a whole number without its value: whoever calls this checks {@link #needsLongValues}
     * once the column is counted and, when it answers true, gives each whole number's value to
     * {@link #addLong(long)} (an all-long column reads no value twice).
     */
    public void addLong() {
      anyLong = true;
    }

    /**
     * Whether the whole numbers' values decide the type: the column holds fractions beside them and
     * nothing else, where a whole number past 2^53 makes it a string column.
     */
    public boolean needsLongValues() {
      return anyLong && anyDouble && !anyOther && !anyBoolean && !anyLongPastDouble;
    }

    /** Counts a whole number. */
    public void addLong(long value) {
      anyLong = true;
      if (value > DOUBLE_EXACT || value < -DOUBLE_EXACT) {
        anyLongPastDouble = true;
      }
    }

    public void addDouble() {
      anyDouble = true;
    }

    public void addBoolean() {
      anyBoolean = true;
    }

    /** Counts a value that is neither a number nor a boolean (a text). */
    public void addOther() {
      anyOther = true;
    }

    /** The type of the column {@code name} of the values counted. */
    public DataType type(String name) {
      if (anyOther || (anyBoolean && (anyLong || anyDouble)) || (anyDouble && anyLongPastDouble)) {
        return DataType.STRING;
      }
      if (anyBoolean) {
        return DataType.BOOLEAN;
      }
      if (anyDouble) {
        return DataType.DOUBLE;
      }
      if (anyLong) {
        return name.equals(TIME_FIELD) ? DataType.TIMESTAMP : DataType.LONG;
      }
      return DataType.STRING;
    }
  }

  /** A block of the cells: no value is a null, several values one position's values. */
  private static Block block(DataType type, List<List<Object>> cells) {
    switch (type) {
      case LONG, TIMESTAMP -> {
        LongBlock.Builder builder = LongBlock.builder(type, cells.size());
        appendCells(
            cells,
            builder::appendNull,
            builder::beginPositionEntry,
            builder::endPositionEntry,
            v -> builder.append((Long) v));
        return builder.build();
      }
      case DOUBLE -> {
        DoubleBlock.Builder builder = DoubleBlock.builder(cells.size());
        appendCells(
            cells,
            builder::appendNull,
            builder::beginPositionEntry,
            builder::endPositionEntry,
            v -> builder.append(((Number) v).doubleValue()));
        return builder.build();
      }
      case BOOLEAN -> {
        BooleanBlock.Builder builder = BooleanBlock.builder(cells.size());
        appendCells(
            cells,
            builder::appendNull,
            builder::beginPositionEntry,
            builder::endPositionEntry,
            v -> builder.append((Boolean) v));
        return builder.build();
      }
      default -> {
        BytesBlock.Builder builder = BytesBlock.builder(cells.size());
        appendCells(
            cells,
            builder::appendNull,
            builder::beginPositionEntry,
            builder::endPositionEntry,
            v -> {
              if (v instanceof Double) {
                builder.appendDouble(Values.toText(v)); // a number beside text keeps its type
              } else if (v instanceof Long) {
                builder.appendNumber(Values.toText(v));
              } else {
                builder.append(Values.toText(v));
              }
            });
        return builder.build();
      }
    }
  }

  private static void appendCells(
      List<List<Object>> cells,
      Runnable appendNull,
      Runnable beginPositionEntry,
      Runnable endPositionEntry,
      Consumer<Object> append) {
    for (List<Object> cell : cells) {
      switch (cell.size()) {
        case 0 -> appendNull.run();
        case 1 -> append.accept(cell.get(0));
        default -> {
          beginPositionEntry.run();
          cell.forEach(append);
          endPositionEntry.run();
        }
      }
    }
  }
}
