package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code xyseries [grouped=<bool>] [sep=<string>] [format=<string>] <x-field> <y-name-field>
 * <y-data-field>...}: a table from rows: one row per value of the x field (in order of appearance),
 * a column per value of the y-name field holding the y-data field's value (with several data
 * fields, a column per data field and name: {@code format}, {@code $AGG$<sep>$VAL$} by default).
 * Holds the table until the end, counted against the search's memory.
 */
final class XySeriesCommand implements CommandDefinition {

  @Override
  public String name() {
    return "xyseries";
  }

  @Override
  public String description() {
    return "Turns rows of (x, name, value) into a table: a row per x value, a column per name.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "grouped",
            ArgumentType.BOOLEAN,
            "false",
            "accepted for Splunk: the input order is free"),
        ArgumentSpec.optional(
            "sep",
            ArgumentType.STRING,
            ": ",
            "between data field and name with several data fields"),
        ArgumentSpec.optional(
            "format",
            ArgumentType.STRING,
            null,
            "column names with several data fields: $AGG$ the data field, $VAL$ the name"),
        ArgumentSpec.required(
            "fields", ArgumentType.FIELD_LIST, "<x-field> <y-name-field> <y-data-field>..."));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    List<String> fields = arguments.fields();
    if (fields.size() < 3) {
      throw new IllegalArgumentException(
          "needs an x field, a y-name field and at least one y-data field, not " + fields);
    }
    String format =
        arguments.has("format")
            ? arguments.getString("format")
            : "$AGG$" + arguments.getString("sep") + "$VAL$";
    return new Bound(
        fields.get(0), fields.get(1), List.copyOf(fields.subList(2, fields.size())), format);
  }

  record Bound(String x, String name, List<String> data, String format) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      Set<String> fields = new LinkedHashSet<>(List.of(x, name));
      fields.addAll(data);
      return fields;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(x);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return new Pivot(context.blockFactory(), this);
    }

    String column(String dataField, String nameValue) {
      return data.size() == 1
          ? nameValue
          : format.replace("$AGG$", dataField).replace("$VAL$", nameValue);
    }
  }

  private static final class Pivot extends QueueOperator {
    private final Bound bound;
    private final Map<String, List<Object>> xValues = new LinkedHashMap<>();
    private final Map<String, Map<String, List<Object>>> cells = new LinkedHashMap<>();
    private final Set<String> columns = new LinkedHashSet<>();

    Pivot(BlockFactory factory, Bound bound) {
      super(factory, "xyseries");
      this.bound = bound;
    }

    @Override
    protected void process(Page page) {
      add(page); // a throw leaves the page whole: QueueOperator releases it
      factory.release(page); // nothing of the page is passed on
    }

    private void add(Page page) {
      Block x = page.block(bound.x());
      Block name = page.block(bound.name());
      if (x != null && name != null) {
        for (int p = 0; p < page.positionCount(); p++) {
          if (x.isNull(p) || name.isNull(p)) {
            continue;
          }
          List<Object> xs = Values.valuesOf(x, p);
          String key = Cells.text(xs.get(0));
          Map<String, List<Object>> row = cells.get(key);
          if (row == null) {
            reserve(64L + 2L * key.length());
            row = new LinkedHashMap<>();
            cells.put(key, row);
            xValues.put(key, List.of(xs.get(0)));
          }
          String nameValue = Cells.text(name.getObject(p));
          for (String dataField : bound.data()) {
            Block data = page.block(dataField);
            if (data == null || data.isNull(p)) {
              continue;
            }
            String column = bound.column(dataField, nameValue);
            List<Object> values = Values.valuesOf(data, p);
            if (row.put(column, values) == null) {
              reserve(48L + 2L * column.length() + values.stream().mapToLong(Cells::bytes).sum());
            }
            columns.add(column);
          }
        }
      }
    }

    @Override
    protected void onFinish() {
      List<String> names = new ArrayList<>();
      names.add(bound.x());
      for (String column : columns) {
        if (!column.equals(bound.x())) {
          names.add(column);
        }
      }
      List<String> keys = new ArrayList<>(cells.keySet());
      for (int from = 0; from < keys.size(); from += MvCombineCommand.PAGE_ROWS) {
        List<String> chunk =
            keys.subList(from, Math.min(keys.size(), from + MvCombineCommand.PAGE_ROWS));
        List<Cells.Column> built = new ArrayList<>();
        for (String column : names) {
          Cells.Column values = new Cells.Column();
          for (String key : chunk) {
            values.add(
                column.equals(bound.x())
                    ? xValues.get(key)
                    : cells.get(key).getOrDefault(column, List.of()));
          }
          built.add(values);
        }
        emit(Cells.page(names, Cells.build(factory, names, built), chunk.size()));
      }
      cells.clear();
      xValues.clear();
      releaseReserved();
    }
  }
}
