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
import java.util.List;

/**
 * Block and page plumbing the built-in page operators share: values of a position, new columns from
 * Java values typed as a search types them, copies of chosen positions.
 */
final class Cells {
  /** The hidden row-id column the row adapter adds; a command passes it on and never reads it. */
  static final String ROW = PluginOperators.ROW_COLUMN;

  private Cells() {}

  /**
   * A position's values as a computation reads them: Long, Double, Boolean, String; a {@link
   * DataType#TIMESTAMP}'s as Splunk's epoch seconds.
   */
  static List<Object> values(Block block, int position) {
    List<Object> values = block.getValues(position);
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
      int next = 0;
      switch (type) {
        case LONG, TIMESTAMP -> {
          LongBlock.Builder builder =
              type == DataType.TIMESTAMP
                  ? factory.newTimestampBlockBuilder(positions)
                  : factory.newLongBlockBuilder(positions);
          for (int p = 0; p < positions; p++) {
            int count = counts[p];
            if (count == 0) {
              builder.appendNull();
            } else if (count == 1) {
              builder.append((Long) values.get(next++));
            } else {
              builder.beginPositionEntry();
              for (int i = 0; i < count; i++) {
                builder.append((Long) values.get(next++));
              }
              builder.endPositionEntry();
            }
          }
          return builder.build();
        }
        case DOUBLE -> {
          DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(positions);
          for (int p = 0; p < positions; p++) {
            int count = counts[p];
            if (count == 0) {
              builder.appendNull();
            } else if (count == 1) {
              builder.append(((Number) values.get(next++)).doubleValue());
            } else {
              builder.beginPositionEntry();
              for (int i = 0; i < count; i++) {
                builder.append(((Number) values.get(next++)).doubleValue());
              }
              builder.endPositionEntry();
            }
          }
          return builder.build();
        }
        case BOOLEAN -> {
          BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(positions);
          for (int p = 0; p < positions; p++) {
            int count = counts[p];
            if (count == 0) {
              builder.appendNull();
            } else if (count == 1) {
              builder.append((Boolean) values.get(next++));
            } else {
              builder.beginPositionEntry();
              for (int i = 0; i < count; i++) {
                builder.append((Boolean) values.get(next++));
              }
              builder.endPositionEntry();
            }
          }
          return builder.build();
        }
        default -> {
          BytesBlock.Builder builder = factory.newBytesBlockBuilder(positions);
          for (int p = 0; p < positions; p++) {
            int count = counts[p];
            if (count == 0) {
              builder.appendNull();
            } else if (count == 1) {
              builder.append(text(values.get(next++)));
            } else {
              builder.beginPositionEntry();
              for (int i = 0; i < count; i++) {
                builder.append(text(values.get(next++)));
              }
              builder.endPositionEntry();
            }
          }
          return builder.build();
        }
      }
    }

    private DataType type(String name) {
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

  /** A block of {@code positions} copies of one value. */
  static Block constant(BlockFactory factory, String name, Object value, int positions) {
    Column column = new Column();
    for (int p = 0; p < positions; p++) {
      column.add(value);
    }
    return column.build(factory, name);
  }

  /**
   * A new block of {@code block}'s positions {@code positions[0 .. count)} in that order (a
   * position may repeat), multivalues kept, reserved through {@code factory}.
   */
  static Block take(BlockFactory factory, Block block, int[] positions, int count) {
    switch (block) {
      case LongBlock longs -> {
        LongBlock.Builder builder =
            longs.dataType() == DataType.TIMESTAMP
                ? factory.newTimestampBlockBuilder(count)
                : factory.newLongBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = longs.getValueCount(p);
          int first = longs.getFirstValueIndex(p);
          if (n == 0) {
            builder.appendNull();
          } else if (n == 1) {
            builder.append(longs.getLongValue(first));
          } else {
            builder.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              builder.append(longs.getLongValue(v));
            }
            builder.endPositionEntry();
          }
        }
        return builder.build();
      }
      case DoubleBlock doubles -> {
        DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = doubles.getValueCount(p);
          int first = doubles.getFirstValueIndex(p);
          if (n == 0) {
            builder.appendNull();
          } else if (n == 1) {
            builder.append(doubles.getDoubleValue(first));
          } else {
            builder.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              builder.append(doubles.getDoubleValue(v));
            }
            builder.endPositionEntry();
          }
        }
        return builder.build();
      }
      case BooleanBlock booleans -> {
        BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = booleans.getValueCount(p);
          int first = booleans.getFirstValueIndex(p);
          if (n == 0) {
            builder.appendNull();
          } else if (n == 1) {
            builder.append(booleans.getBooleanValue(first));
          } else {
            builder.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              builder.append(booleans.getBooleanValue(v));
            }
            builder.endPositionEntry();
          }
        }
        return builder.build();
      }
      case BytesBlock bytes -> {
        BytesBlock.Builder builder = factory.newBytesBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          int p = positions[i];
          int n = bytes.getValueCount(p);
          int first = bytes.getFirstValueIndex(p);
          if (n == 0) {
            builder.appendNull();
          } else if (n == 1) {
            builder.append(bytes.getStringValue(first));
          } else {
            builder.beginPositionEntry();
            for (int v = first; v < first + n; v++) {
              builder.append(bytes.getStringValue(v));
            }
            builder.endPositionEntry();
          }
        }
        return builder.build();
      }
    }
  }

  /**
   * A new block of one value per position: the value at each value index of {@code block} ({@code
   * -1}: a null), for {@code valueIndexes[0 .. count)}.
   */
  static Block takeValues(BlockFactory factory, Block block, int[] valueIndexes, int count) {
    switch (block) {
      case LongBlock longs -> {
        LongBlock.Builder builder =
            longs.dataType() == DataType.TIMESTAMP
                ? factory.newTimestampBlockBuilder(count)
                : factory.newLongBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            builder.append(longs.getLongValue(valueIndexes[i]));
          }
        }
        return builder.build();
      }
      case DoubleBlock doubles -> {
        DoubleBlock.Builder builder = factory.newDoubleBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            builder.append(doubles.getDoubleValue(valueIndexes[i]));
          }
        }
        return builder.build();
      }
      case BooleanBlock booleans -> {
        BooleanBlock.Builder builder = factory.newBooleanBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            builder.append(booleans.getBooleanValue(valueIndexes[i]));
          }
        }
        return builder.build();
      }
      case BytesBlock bytes -> {
        BytesBlock.Builder builder = factory.newBytesBlockBuilder(count);
        for (int i = 0; i < count; i++) {
          if (valueIndexes[i] < 0) {
            builder.appendNull();
          } else {
            builder.append(bytes.getStringValue(valueIndexes[i]));
          }
        }
        return builder.build();
      }
    }
  }

  /**
   * The page's positions {@code positions[0 .. count)} as a new page (every column copied), the
   * input page released; the input page itself when that is every position in order.
   */
  static Page take(BlockFactory factory, Page page, int[] positions, int count) {
    if (count == page.positionCount() && isIdentity(positions, count)) {
      return page;
    }
    List<Block> blocks = new ArrayList<>(page.blocks().size());
    for (Block block : page.blocks()) {
      blocks.add(take(factory, block, positions, count));
    }
    factory.release(page);
    return new Page(page.schema(), blocks, count);
  }

  private static boolean isIdentity(int[] positions, int count) {
    for (int i = 0; i < count; i++) {
      if (positions[i] != i) {
        return false;
      }
    }
    return true;
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
