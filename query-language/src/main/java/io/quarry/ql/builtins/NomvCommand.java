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
import java.util.List;
import java.util.Set;

/**
 * {@code nomv <field>}: a multivalue field becomes one text value, its values joined by newlines
 * (Splunk's separator); single values and nulls are left as they are.
 */
final class NomvCommand implements CommandDefinition {

  @Override
  public String name() {
    return "nomv";
  }

  @Override
  public String description() {
    return "Turns a multivalue field into one value, its values separated by newlines.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the multivalue field")
            .alsoPositional());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(arguments.getString("field"));
  }

  record Bound(String field) implements BoundCommand {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(field);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          Block block = input.block(field);
          if (block == null || !block.mayHaveMultivaluedFields()) {
            return input;
          }
          Cells.Column column = new Cells.Column();
          StringBuilder joined = new StringBuilder();
          for (int p = 0; p < input.positionCount(); p++) {
            List<Object> values = Cells.values(block, p);
            if (values.size() < 2) {
              column.add(values);
              continue;
            }
            joined.setLength(0);
            for (Object value : values) {
              if (!joined.isEmpty()) {
                joined.append('\n');
              }
              joined.append(Cells.text(value));
            }
            column.add(joined.toString());
          }
          return factory.withColumn(input, field, column.build(factory, field));
        }
      };
    }
  }
}
