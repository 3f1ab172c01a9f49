package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.plugin.api.data.BlockFactory;
import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code transpose [<count>] [column_name=<name>] [header_field=<field>] [include_empty=<bool>]}:
 * the first {@code count} results (5 by default; 0: all) turned so that each field becomes a
 * result: {@code column_name} ({@code column}) holds the field's name and {@code row 1}, {@code row
 * 2}, … its values in result order, or, with {@code header_field}, columns named by that field's
 * values (a result without one keeps {@code row N}); the header field itself is not a row. The
 * fields are those of the whole input (of every page, past the transposed results too: where the
 * pages part does not change them), in the order first seen; {@code include_empty=false} leaves out
 * those without a value in any transposed result. Centralized: the results are held until the end,
 * counted as memory.
 */
final class TransposeCommand implements CommandDefinition {
  static final long MAX_COUNT = 10_000;

  @Override
  public String name() {
    return "transpose";
  }

  @Override
  public String description() {
    return "Turns results into columns: one result per field, one column per result.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
                "count",
                ArgumentType.LONG,
                "5",
                "how many results to transpose (0: all, up to " + MAX_COUNT + ")")
            .alsoPositional(),
        ArgumentSpec.optional(
            "column_name", ArgumentType.STRING, "column", "the column of the field names"),
        ArgumentSpec.optional(
            "header_field", ArgumentType.FIELD, null, "the field whose values name the columns"),
        ArgumentSpec.optional(
            "include_empty",
            ArgumentType.BOOLEAN,
            "true",
            "keep fields without a value in any transposed result"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    long count = arguments.getLong("count");
    if (count < 0 || count > MAX_COUNT) {
      throw new IllegalArgumentException(
          "transpose count must be 0 (all) to " + MAX_COUNT + ", not " + count);
    }
    return new Bound(
        count == 0 ? MAX_COUNT : count,
        arguments.getString("column_name"),
        arguments.has("header_field") ? arguments.getString("header_field") : null,
        arguments.getBoolean("include_empty"));
  }

  record Bound(long count, String columnName, String headerField, boolean includeEmpty)
      implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(columnName);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      Set<String> fields = new LinkedHashSet<>();
      List<Map<String, List<Object>>> rows = new ArrayList<>();
      return new QueueOperator(factory, "transpose") {
        @Override
        protected void process(Page page) {
          List<String> names = Cells.fieldNames(page);
          fields.addAll(names); // every page's, those after the transposed results' too
          for (int p = 0; p < page.positionCount() && rows.size() < count; p++) {
            Map<String, List<Object>> row = Cells.row(page, names, p, false);
            reserve(Cells.bytes(row));
            rows.add(row);
          }
          factory.release(page);
        }

        @Override
        protected void onFinish() {
          emit(transposed(factory, fields, rows));
          releaseReserved();
        }
      };
    }

    private Page transposed(
        BlockFactory factory, Set<String> fields, List<Map<String, List<Object>>> rows) {
      List<String> kept = new ArrayList<>();
      for (String field : fields) {
        if (field.equals(headerField)) {
          continue;
        }
        boolean any = false;
        for (Map<String, List<Object>> row : rows) {
          any |= row.containsKey(field);
        }
        if (any || includeEmpty) {
          kept.add(field);
        }
      }
      List<String> names = new ArrayList<>();
      List<Cells.Column> columns = new ArrayList<>();
      Cells.Column first = new Cells.Column();
      kept.forEach(first::add);
      names.add(columnName);
      columns.add(first);
      for (int r = 0; r < rows.size(); r++) {
        Map<String, List<Object>> row = rows.get(r);
        String name = "row " + (r + 1);
        if (headerField != null && row.containsKey(headerField)) {
          name = Cells.text(row.get(headerField).get(0));
        }
        if (names.contains(name)) {
          continue; // a repeated header names one column: the first result's
        }
        Cells.Column column = new Cells.Column();
        for (String field : kept) {
          column.add(row.getOrDefault(field, List.of()));
        }
        names.add(name);
        columns.add(column);
      }
      return Cells.page(names, Cells.build(factory, names, columns), kept.size());
    }
  }
}
