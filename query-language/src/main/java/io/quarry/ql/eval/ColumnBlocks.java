package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A column written to a field as a block, typed as {@code PageBuilder} types a field's values over
 * the page: whole numbers a long block ({@code _time} a timestamp), any double among numbers a
 * double block, booleans a boolean block, anything else (or a mix of booleans and numbers, or no
 * value at all) a string block of the values' texts; a multivalue one position of several values. A
 * field's block read unchanged is handed on as it is.
 */
public final class ColumnBlocks {
  private ColumnBlocks() {}

  /** The block of {@code column} written to the field {@code name}. */
  public static Block block(String name, ValueColumn column) {
    if (column instanceof BlockColumn read && reusable(name, read.block())) {
      return read.block();
    }
    DataType type = type(name, column);
    int size = column.size();
    return switch (type) {
      case LONG, TIMESTAMP -> {
        LongBlock.Builder builder = LongBlock.builder(type, size);
        for (int p = 0; p < size; p++) {
          switch (column.kind(p)) {
            case ValueColumn.NULL -> builder.appendNull();
            case ValueColumn.LONG -> builder.append(column.getLong(p));
            default -> {
              builder.beginPositionEntry();
              cell(column.get(p)).forEach(v -> builder.append((Long) v));
              builder.endPositionEntry();
            }
          }
        }
        yield builder.build();
      }
      case DOUBLE -> {
        DoubleBlock.Builder builder = DoubleBlock.builder(size);
        for (int p = 0; p < size; p++) {
          switch (column.kind(p)) {
            case ValueColumn.NULL -> builder.appendNull();
            case ValueColumn.LONG -> builder.append(column.getLong(p));
            case ValueColumn.DOUBLE -> builder.append(column.getDouble(p));
            default -> {
              builder.beginPositionEntry();
              cell(column.get(p)).forEach(v -> builder.append(((Number) v).doubleValue()));
              builder.endPositionEntry();
            }
          }
        }
        yield builder.build();
      }
      case BOOLEAN -> {
        BooleanBlock.Builder builder = BooleanBlock.builder(size);
        for (int p = 0; p < size; p++) {
          switch (column.kind(p)) {
            case ValueColumn.NULL -> builder.appendNull();
            case ValueColumn.BOOLEAN -> builder.append(column.getBoolean(p));
            default -> {
              builder.beginPositionEntry();
              cell(column.get(p)).forEach(v -> builder.append((Boolean) v));
              builder.endPositionEntry();
            }
          }
        }
        yield builder.build();
      }
      default -> {
        BytesBlock.Builder builder = BytesBlock.builder(size);
        String previous = null; // a literal's text is the same String at every position it fills
        byte[] previousBytes = null;
        for (int p = 0; p < size; p++) {
          switch (column.kind(p)) {
            case ValueColumn.NULL -> builder.appendNull();
            case ValueColumn.TEXT -> {
              String text = column.getText(p);
              if (text != previous) {
                previous = text;
                previousBytes = text.getBytes(StandardCharsets.UTF_8);
              }
              builder.append(previousBytes);
            }
            case ValueColumn.MULTIVALUE -> {
              builder.beginPositionEntry();
              cell(column.get(p)).forEach(v -> builder.append(Values.toText(v)));
              builder.endPositionEntry();
            }
            default -> builder.append(Values.toText(column.get(p)));
          }
        }
        yield builder.build();
      }
    };
  }

  /**
   * Whether a field's block, read and written unchanged, types as {@code PageBuilder} would type
   * its values: not {@code _time} (read as seconds), and some value (an all-null column is a string
   * one).
   */
  private static boolean reusable(String name, Block block) {
    if (TimeField.is(name) || block.dataType() == DataType.TIMESTAMP) {
      return false;
    }
    return block.getTotalValueCount() > 0;
  }

  /** A multivalue's values (a position entry of none is a null, of one a single value). */
  private static List<?> cell(Object value) {
    return value instanceof List<?> list ? list : List.of(value);
  }

  private static DataType type(String name, ValueColumn column) {
    boolean anyLong = false;
    boolean anyDouble = false;
    boolean anyBoolean = false;
    boolean anyOther = false;
    for (int p = 0; p < column.size(); p++) {
      switch (column.kind(p)) {
        case ValueColumn.NULL -> {}
        case ValueColumn.LONG -> anyLong = true;
        case ValueColumn.DOUBLE -> anyDouble = true;
        case ValueColumn.BOOLEAN -> anyBoolean = true;
        case ValueColumn.MULTIVALUE -> {
          for (Object value : (List<?>) column.get(p)) {
            switch (value) {
              case Long l -> anyLong = true;
              case Double d -> anyDouble = true;
              case Boolean b -> anyBoolean = true;
              default -> anyOther = true;
            }
          }
        }
        default -> anyOther = true;
      }
    }
    if (anyOther || (anyBoolean && (anyLong || anyDouble))) {
      return DataType.STRING;
    }
    if (anyBoolean) {
      return DataType.BOOLEAN;
    }
    if (anyDouble) {
      return DataType.DOUBLE;
    }
    if (anyLong) {
      return TimeField.is(name) ? DataType.TIMESTAMP : DataType.LONG;
    }
    return DataType.STRING;
  }
}
