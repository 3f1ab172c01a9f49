package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.command.PageTransformOperator;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.command.PerUseKind;
import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code fillnull [value=<string>] [<field>...]}: replaces nulls (and absent fields) with a value,
 * {@code 0} by default. With fields it streams; without, it fills every field any row has, so it
 * holds every page until the end (centralized).
 */
final class FillNullCommand implements CommandDefinition {

  @Override
  public String name() {
    return "fillnull";
  }

  @Override
  public String description() {
    return "Replaces null (absent) values with a value, 0 by default: in the given fields, or in every"
        + " field any result has.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional("value", ArgumentType.STRING, "0", "the value put in place of nulls"),
        ArgumentSpec.optional(
            "fields",
            ArgumentType.FIELD_LIST,
            null,
            "the fields to fill (default: every field any result has)"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(arguments.getString("value"), arguments.fields());
  }

  record Bound(String value, List<String> fields) implements BoundCommand, PerUseKind {
    @Override
    public CommandKind kind() {
      return fields.isEmpty() ? CommandKind.CENTRALIZED : CommandKind.STREAMING;
    }

    @Override
    public Set<String> requiredFields() {
      return fields.isEmpty() ? ALL_FIELDS : new LinkedHashSet<>(fields);
    }

    @Override
    public Set<String> producedFields() {
      return fields.isEmpty() ? Set.of() : new LinkedHashSet<>(fields);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      if (!fields.isEmpty()) {
        return new PageTransformOperator() {
          @Override
          protected Page process(Page input) {
            return fill(factory, input, fields, value);
          }
        };
      }
      return new QueueOperator(factory, "fillnull") {
        private final List<Page> held = new ArrayList<>();
        private final Set<String> names = new LinkedHashSet<>();

        @Override
        protected void process(Page page) {
          held.add(page);
          names.addAll(Cells.fieldNames(page));
        }

        /** Each held page filled and emitted, or (a throw) left held and whole for close. */
        @Override
        protected void onFinish() {
          List<String> all = List.copyOf(names);
          Map<String, DataType> types = valuedTypes(held);
          while (!held.isEmpty()) {
            Page filled = fill(factory, held.getFirst(), all, value, types);
            held.removeFirst();
            emit(filled);
          }
        }

        @Override
        public void close() {
          for (Page page : held) {
            factory.release(page);
          }
          held.clear();
          super.close();
        }
      };
    }
  }

  /** {@code page} with every null of {@code fields} (an absent field: every position) filled. */
  static Page fill(BlockFactory factory, Page page, List<String> fields, String value) {
    return fill(factory, page, fields, value, null);
  }

  /**
   * As above, a column without any value on this page filled in the type {@code otherPages} gives
   * its field (the type of its values on the other pages of the result), text where it gives none;
   * with {@code otherPages} null (a field list: the page alone) as an absent field is (a whole
   * number a long, a decimal a double, else text). The filled columns are built all before any
   * replaces (over the memory limit, {@code page} stays whole).
   */
  static Page fill(
      BlockFactory factory,
      Page page,
      List<String> fields,
      String value,
      Map<String, DataType> otherPages) {
    List<String> filledFields = new ArrayList<>();
    List<Cells.Column> filledColumns = new ArrayList<>();
    for (String field : new LinkedHashSet<>(fields)) {
      Block block = page.block(field);
      if (block != null && !hasNull(block)) {
        continue;
      }
      // a column without any value here says nothing of its type (a page of nulls is built as
      // text), so that its type does not hang on where the pages part: without a field list
      // (otherPages: every page of the result) it is filled as the other pages type the field, as
      // text where none holds a value (a field of events); with one, as an absent field is, by the
      // value (issue 21: fillnull value=0 x wrote "0" as text on a page of nulls, 0 as a number
      // beside numbers)
      boolean valueless = block == null || allNull(block);
      DataType known =
          !valueless
              ? block.dataType()
              : otherPages == null
                  ? null
                  : otherPages.getOrDefault(field, block == null ? null : DataType.STRING);
      Object fillValue = typed(value, known);
      Cells.Column column = new Cells.Column();
      if (valueless) {
        for (int p = 0; p < page.positionCount(); p++) {
          column.add(fillValue);
        }
      } else {
        boolean keepType = !(fillValue instanceof String) || block.dataType() == DataType.STRING;
        for (int p = 0; p < page.positionCount(); p++) {
          if (block.isNull(p)) {
            column.add(fillValue);
          } else {
            // as text, a timestamp is Splunk's epoch seconds (not the block's microseconds)
            List<Object> values = keepType ? Values.valuesOf(block, p) : Cells.values(block, p);
            column.add(
                keepType ? values : values.stream().map(v -> (Object) Cells.text(v)).toList());
          }
        }
      }
      filledFields.add(field);
      filledColumns.add(column);
    }
    return Cells.withColumns(factory, page, filledFields, filledColumns);
  }

  /**
   * Per field, the type of its columns that hold a value on the pages (long and double: double;
   * other mixes: text).
   */
  private static Map<String, DataType> valuedTypes(List<Page> pages) {
    Map<String, DataType> types = new java.util.HashMap<>();
    for (Page page : pages) {
      for (int c = 0; c < page.schema().size(); c++) {
        Block block = page.block(c);
        if (allNull(block)) {
          continue;
        }
        types.merge(
            page.schema().column(c).name(),
            block.dataType(),
            (a, b) ->
                a == b
                    ? a
                    : (a == DataType.LONG || a == DataType.DOUBLE)
                            && (b == DataType.LONG || b == DataType.DOUBLE)
                        ? DataType.DOUBLE
                        : DataType.STRING);
      }
    }
    return types;
  }

  private static boolean allNull(Block block) {
    for (int p = 0; p < block.positionCount(); p++) {
      if (!block.isNull(p)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasNull(Block block) {
    for (int p = 0; p < block.positionCount(); p++) {
      if (block.isNull(p)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The fill value in the type of the column it goes into: a number in a number column when it is
   * one (a whole number a long in a long or timestamp column), else text; for an absent column a
   * long when it is a whole number, a double when a decimal, else text.
   */
  static Object typed(String value, DataType type) {
    Long whole = parseLong(value);
    Double decimal = parseDouble(value);
    if (type == null) {
      return whole != null ? whole : decimal != null ? (Object) decimal : value;
    }
    return switch (type) {
      case LONG, TIMESTAMP -> whole != null ? whole : decimal != null ? (Object) decimal : value;
      case DOUBLE -> decimal != null ? (Object) decimal : value;
      default -> value;
    };
  }

  private static Long parseLong(String text) {
    if (!text.matches("[+-]?\\d{1,18}")) {
      return null;
    }
    return Long.parseLong(text);
  }

  private static Double parseDouble(String text) {
    if (!text.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
      return null;
    }
    return Double.parseDouble(text);
  }
}
