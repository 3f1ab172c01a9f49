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
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code accum <field> [AS <newfield>]}: the running total of the field's numbers, in result order,
 * into the field itself or {@code newfield}. A result whose field is not a number adds nothing and
 * gets no total (the output keeps what it held). Whole numbers sum as a whole number; a decimal
 * makes the total a decimal from there on.
 */
final class AccumCommand implements CommandDefinition, CustomSyntax {

  @Override
  public String name() {
    return "accum";
  }

  @Override
  public String description() {
    return "Writes the running total of a numeric field, in result order.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public String syntax() {
    return "accum <field> [AS <newfield>]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the numeric field to sum"),
        ArgumentSpec.optional("as", ArgumentType.FIELD, "", "where the total goes (the field)"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    Syntax.Renamed field = Syntax.fieldAs(reader, "the field to accumulate");
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "AS <newfield>, '|' or the end of the query");
    }
    return new CommandArguments(Map.of("field", field.field().text(), "as", field.as()), List.of());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String field = arguments.getString("field");
    String as = arguments.getString("as");
    return new Bound(field, as.isEmpty() ? field : as);
  }

  record Bound(String field, String output) implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      return new LinkedHashSet<>(List.of(field, output));
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(output);
    }

    @Override
    public String splArguments() {
      String text = SplText.word(field, Set.of("as"));
      return output.equals(field) ? text : text + " AS " + SplText.word(output, Set.of("as"));
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      RunningSum total = new RunningSum();
      return new QueueOperator(factory, "accum") {
        @Override
        protected void process(Page page) {
          Block block = page.block(field);
          Block previous = page.block(output);
          Cells.Column column = new Cells.Column();
          for (int p = 0; p < page.positionCount(); p++) {
            Object number =
                block == null || block.isNull(p)
                    ? null
                    : Conversions.number(Cells.values(block, p).get(0), false);
            if (number != null) {
              column.add(total.add(number));
            } else {
              column.add(previous == null ? List.of() : Cells.values(previous, p));
            }
          }
          emit(factory.withColumn(page, output, column.build(factory, output)));
        }
      };
    }
  }

  /** A sum that stays a whole number while every value added is one. */
  static final class RunningSum {
    private long whole;
    private double decimal;
    private boolean isDecimal;

    Object add(Object number) {
      if (!isDecimal && number instanceof Long l) {
        try {
          whole = Math.addExact(whole, l);
          return whole;
        } catch (ArithmeticException overflow) {
          decimal = whole;
          isDecimal = true;
        }
      }
      if (!isDecimal) {
        decimal = whole;
        isDecimal = true;
      }
      decimal += ((Number) number).doubleValue();
      return decimal;
    }
  }
}
