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
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.exec.Values;
import java.util.List;
import java.util.Set;

/**
 * {@code untable <x-field> <y-name-field> <y-data-field>}: the reverse of {@code xyseries}: each
 * row becomes one row per other non-null field, by field name: (x, the field's name, its value).
 * Internal fields ({@code _}-prefixed) other than the x field are left out.
 */
final class UntableCommand implements CommandDefinition {

  @Override
  public String name() {
    return "untable";
  }

  @Override
  public String description() {
    return "Turns a table into rows of (x, field name, value), one per non-null field of each row.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required(
            "fields", ArgumentType.FIELD_LIST, "<x-field> <y-name-field> <y-data-field>"));
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    List<String> fields = arguments.fields();
    if (fields.size() != 3) {
      throw new IllegalArgumentException(
          "needs exactly an x field, a y-name field and a y-data field, not " + fields);
    }
    if (new java.util.HashSet<>(fields).size() != 3) {
      throw new IllegalArgumentException("the three fields must differ, not " + fields);
    }
    return new Bound(fields.get(0), fields.get(1), fields.get(2));
  }

  record Bound(String x, String name, String data) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return ALL_FIELDS;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(name, data);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page page) {
          Block xs = page.block(x);
          List<String> fields =
              Cells.fieldNames(page).stream()
                  .filter(f -> !f.equals(x) && !f.startsWith("_"))
                  .sorted() // Splunk lists a row's fields by name
                  .toList();
          Cells.Column xColumn = new Cells.Column();
          Cells.Column names = new Cells.Column();
          Cells.Column values = new Cells.Column();
          for (int p = 0; p < page.positionCount(); p++) {
            for (String field : fields) {
              Block block = page.block(field);
              if (block.isNull(p)) {
                continue;
              }
              xColumn.add(xs == null ? List.of() : Values.valuesOf(xs, p));
              names.add(field);
              values.add(Values.valuesOf(block, p));
            }
          }
          int rows = names.positions();
          if (rows == 0) {
            factory.release(page);
            return null;
          }
          List<String> columns = List.of(x, name, data);
          Page out =
              Cells.page(
                  columns, Cells.build(factory, columns, List.of(xColumn, names, values)), rows);
          factory.release(page); // after the answer is built: a failure leaves the page whole
          return out;
        }
      };
    }
  }
}
