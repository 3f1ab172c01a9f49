package io.quarry.server.rest;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BooleanBlock;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders typed values for the wire: as Splunk's REST API shows them (text, times in ISO-8601), or
 * typed for Quarry's JSON. A position with several values (a multivalue) is a list in JSON, as in
 * Splunk's JSON output, and one text of its values joined by newlines where a cell holds one text
 * (CSV, as Splunk's CSV output).
 */
final class ResultValues {
  private static final DateTimeFormatter SPLUNK_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxxx").withZone(ZoneOffset.UTC);

  private ResultValues() {}

  /**
   * A typed value for JSON: numbers, booleans, text, a list of them for a multivalue; times as
   * ISO-8601 text; null for a null position.
   */
  static Object typed(Block block, int position) {
    int count = block.getValueCount(position);
    int first = count == 0 ? 0 : block.getFirstValueIndex(position);
    return switch (count) {
      case 0 -> null;
      case 1 -> typedValue(block, first);
      default -> {
        List<Object> values = new ArrayList<>(count);
        for (int i = first; i < first + count; i++) {
          values.add(typedValue(block, i));
        }
        yield values;
      }
    };
  }

  /**
   * A value as Splunk's JSON gives it: text, a list of texts for a multivalue, null for a null
   * position.
   */
  static Object splunk(Block block, int position) {
    int count = block.getValueCount(position);
    if (count <= 1) {
      return text(block, position);
    }
    int first = block.getFirstValueIndex(position);
    List<String> values = new ArrayList<>(count);
    for (int i = first; i < first + count; i++) {
      values.add(valueText(block, i));
    }
    return values;
  }

  /**
   * The value at a position as one text (a multivalue's values joined by newlines, as Splunk's CSV
   * output shows them), or null when it is null.
   */
  static String text(Block block, int position) {
    int count = block.getValueCount(position);
    if (count == 0) {
      return null;
    }
    int first = block.getFirstValueIndex(position);
    if (count == 1) {
      return valueText(block, first);
    }
    StringBuilder text = new StringBuilder();
    for (int i = first; i < first + count; i++) {
      if (i > first) {
        text.append('\n');
      }
      text.append(valueText(block, i));
    }
    return text.toString();
  }

  /** The value at a value index of a block, typed for JSON (times as ISO-8601 text). */
  private static Object typedValue(Block block, int valueIndex) {
    return switch (block) {
      case LongBlock longs ->
          block.dataType() == DataType.TIMESTAMP
              ? time(longs.getLongValue(valueIndex))
              : (Object) longs.getLongValue(valueIndex);
      case DoubleBlock doubles -> {
        double value = doubles.getDoubleValue(valueIndex);
        // JSON has no infinity nor NaN: Splunk's texts for them (inf, -inf, nan)
        yield Double.isFinite(value) ? (Object) value : Values.toText(value);
      }
      case BooleanBlock booleans -> booleans.getBooleanValue(valueIndex);
      case BytesBlock bytes -> {
        Object value = Values.stringValue(bytes, valueIndex); // a number tagged as one: the number
        yield value instanceof Double d && !Double.isFinite(d) ? Values.toText(d) : value;
      }
    };
  }

  /**
   * The type a block's values need: its own, except that a double block whose every value is a
   * whole number ({@link Values#isWhole}) needs no more than a long. Inside the engine a page's
   * numeric column is one block, a double one as soon as some position holds a fraction, so a whole
   * number is a double or a long by the page it shares; typed by its values, a column is the same
   * wherever the pages part (issue 21).
   */
  static DataType valueType(Block block) {
    if (block instanceof BytesBlock bytes && bytes.mayHaveNumbers()) {
      return taggedNumbersType(bytes);
    }
    if (block instanceof DoubleBlock doubles) {
      for (int position = 0; position < block.positionCount(); position++) {
        int first = block.getFirstValueIndex(position);
        for (int i = first; i < first + block.getValueCount(position); i++) {
          if (!Values.isWhole(doubles.getDoubleValue(i))) {
            return DataType.DOUBLE;
          }
        }
      }
      return DataType.LONG;
    }
    return block.dataType();
  }

  /**
   * The type of a string block holding numbers tagged as such ({@link BytesBlock#isNumber}): text
   * when some value is a text; else long when every number is whole and a long holds it, double
   * otherwise — a column that kept numbers beside text, or a whole number past 2^53 beside a
   * fraction, in one block is typed by the values it holds, as a long or double block would be.
   */
  private static DataType taggedNumbersType(BytesBlock bytes) {
    DataType type = null;
    for (int position = 0; position < bytes.positionCount(); position++) {
      int first = bytes.getFirstValueIndex(position);
      for (int i = first; i < first + bytes.getValueCount(position); i++) {
        if (!bytes.isNumber(i)) {
          return DataType.STRING;
        }
        if (!(Values.numberOfText(bytes.getStringValue(i)) instanceof Long)) {
          type = DataType.DOUBLE;
        } else if (type == null) {
          type = DataType.LONG;
        }
      }
    }
    return type == null ? DataType.STRING : type;
  }

  /**
   * Whether a block's values can go out as {@code type}, the one type of its column ({@link
   * StreamSchema#schema}): its own, double for a long, long for whole doubles ({@link #valueType}),
   * text for any, any type for a block without a value.
   */
  static boolean fits(Block block, DataType type) {
    DataType own = block.dataType();
    return own == type
        || type == DataType.STRING
        || type == DataType.DOUBLE && own == DataType.LONG
        || type == DataType.LONG && own == DataType.DOUBLE && valueType(block) == DataType.LONG
        || own == DataType.STRING && numbersFit(valueType(block), type)
        || block.getTotalValueCount() == 0;
  }

  /** Whether numbers that need {@code needed} go out as {@code type}: a long as a double too. */
  private static boolean numbersFit(DataType needed, DataType type) {
    return needed == type || needed == DataType.LONG && type == DataType.DOUBLE;
  }

  /**
   * {@link #typed} as {@code type}, its column's one type (null: none was fixed, the column had no
   * value in the sample): a long as a double in a double column (past 2^53 as the long it is, every
   * digit, whether its page held it in a long block or beside a fraction in a string one); a double
   * in a long column or in a column of no type as the value it is, a whole number as a long ({@link
   * Values#isWhole}), so that a value past the sample that its column's type cannot hold is written
   * the same wherever pages part; any value as its text in a text column (a number tagged in a
   * string block too), a time as its epoch seconds ({@code fillnull value=none _time} writes the
   * others so); anything else as its block types it.
   */
  static Object typedAs(Block block, int position, DataType type) {
    if ((block.dataType() == type && !tagsNumbers(block)) || block.isNull(position)) {
      return typed(block, position);
    }
    int count = block.getValueCount(position);
    int first = block.getFirstValueIndex(position);
    List<Object> values = new ArrayList<>(count);
    for (int i = first; i < first + count; i++) {
      if (type == DataType.STRING) {
        values.add(
            block.dataType() == DataType.TIMESTAMP // as text, Splunk's epoch seconds
                ? Values.toText(TimeField.secondsOf(((LongBlock) block).getLongValue(i)))
                : valueText(block, i));
      } else if (type == DataType.DOUBLE && block.dataType() == DataType.LONG) {
        long whole = ((LongBlock) block).getLongValue(i);
        // a whole number a double holds exactly as a double; past 2^53 every digit, as it is
        values.add(exactInDouble(whole) ? (Object) (double) whole : whole);
      } else if (type == DataType.DOUBLE
          && block instanceof BytesBlock bytes
          && Values.stringValue(bytes, i) instanceof Long whole
          && exactInDouble(whole)) {
        values.add((double) whole); // as a long block's whole number in a double column
      } else if ((type == DataType.LONG || type == null) && block instanceof DoubleBlock doubles) {
        double value = doubles.getDoubleValue(i);
        values.add(Values.isWhole(value) ? (Object) (long) value : typedValue(block, i));
      } else {
        values.add(typedValue(block, i));
      }
    }
    return count == 1 ? values.get(0) : values;
  }

  /**
   * Whether a double holds a whole number exactly by the engine's column typing (within 2^53: a
   * page never puts a greater one in a double block).
   */
  private static boolean exactInDouble(long whole) {
    return whole >= -(1L << 53) && whole <= 1L << 53;
  }

  /**
   * Whether a block is a string block with values tagged as numbers ({@link BytesBlock#isNumber}).
   */
  private static boolean tagsNumbers(Block block) {
    return block instanceof BytesBlock bytes && bytes.mayHaveNumbers();
  }

  /** The value at a value index of a block as text. */
  static String valueText(Block block, int valueIndex) {
    if (block.dataType() == DataType.TIMESTAMP) {
      return time(((LongBlock) block).getLongValue(valueIndex));
    }
    return switch (block) {
      case BytesBlock bytes -> bytes.getStringValue(valueIndex);
      default -> Values.toText(typedValue(block, valueIndex));
    };
  }

  private static String time(long micros) {
    return SPLUNK_TIME.format(
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1_000L));
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

  /**
   * A row's values as Splunk's JSON gives them, in the order of {@code columns}: text, a list of
   * texts for a multivalue, null for -1 or a null value.
   */
  static List<Object> splunkValues(
      io.quarry.plugin.api.data.Page page, int position, int[] columns) {
    List<Object> cells = new ArrayList<>(columns.length);
    for (int column : columns) {
      cells.add(column < 0 ? null : splunk(page.block(column), position));
    }
    return cells;
  }
}
