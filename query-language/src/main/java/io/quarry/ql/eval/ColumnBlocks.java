package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.PageBuilder;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A column written to a field as a block, typed as {@code PageBuilder} types a field's values over
 * the page: whole numbers a long block ({@code _time} a timestamp), any double among numbers a
 * double block, booleans a boolean block, anything else (or a mix of booleans and numbers, or no
 * value at all) a string block of the values' texts, its numbers tagged as numbers; a multivalue
 * one position of several values. A field's block read unchanged is handed on as it is, and a text
 * literal ({@code eval x="GET"}) becomes a constant block.
 */
public final class ColumnBlocks {
  private ColumnBlocks() {}

  /** The block of {@code column} written to the field {@code name}. */
  public static Block block(String name, ValueColumn column) {
    if (column instanceof BlockColumn read && reusable(name, read.block())) {
      return read.block();
    }
    if (column instanceof ConstantColumn constant && constant.value() instanceof String text) {
      return BytesBlock.constant(text, column.size()); // a text literal: one value, not a copy each
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
        if (column instanceof DictionaryColumn dictionary
            && dictionary.bytesBlock() instanceof BytesBlock block) {
          yield block; // a function's answers over a dictionary: each distinct text once
        }
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
              cell(column.get(p)).forEach(v -> appendText(builder, v));
              builder.endPositionEntry();
            }
            default -> appendText(builder, column.get(p));
          }
        }
        yield builder.build();
      }
    };
  }

  /**
   * A value into a string column: a number tagged as one ({@code BytesBlock.isNumber}), so that a
   * number beside text on its page stays a number; anything else as its text.
   */
  private static void appendText(BytesBlock.Builder builder, Object value) {
    if (value instanceof Double) {
      builder.appendDouble(Values.toText(value)); // tagged as a double: pow(2,53) stays one
    } else if (value instanceof Long) {
      builder.appendNumber(Values.toText(value));
    } else {
      builder.append(Values.toText(value));
    }
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

  /** The column's type by {@code PageBuilder}'s rule, fed the column's values. */
  private static DataType type(String name, ValueColumn column) {
    PageBuilder.ColumnTyping typing = new PageBuilder.ColumnTyping();
    for (int p = 0; p < column.size(); p++) {
      switch (column.kind(p)) {
        case ValueColumn.NULL -> {}
        case ValueColumn.LONG -> typing.addLong();
        case ValueColumn.DOUBLE -> typing.addDouble();
        case ValueColumn.BOOLEAN -> typing.addBoolean();
        case ValueColumn.MULTIVALUE -> ((List<?>) column.get(p)).forEach(typing::add);
        default -> typing.addOther();
      }
    }
    if (typing.needsLongValues()) { // fractions beside whole numbers: is one past 2^53?
      for (int p = 0; p < column.size(); p++) {
        if (column.kind(p) == ValueColumn.LONG) {
          typing.addLong(column.getLong(p));
        }
      }
    }
    return typing.type(name);
  }
}
