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
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code delta <field> [AS <newfield>] [p=<n>]}: the field's number minus its number {@code p}
 * results earlier (1 by default), in result order, into {@code newfield} ({@code delta(<field>)} by
 * default). No output where either value is missing or not a number.
 */
final class DeltaCommand implements CommandDefinition, CustomSyntax {
  static final long MAX_P = 10_000;

  @Override
  public String name() {
    return "delta";
  }

  @Override
  public String description() {
    return "Writes the difference between a numeric field and its value p results earlier.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public String syntax() {
    return "delta <field> [AS <newfield>] [p=<n>]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the numeric field"),
        ArgumentSpec.optional("as", ArgumentType.FIELD, "", "the output (default delta(<field>))"),
        ArgumentSpec.optional("p", ArgumentType.LONG, "1", "how many results back to compare"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    long p = 1;
    Syntax.Renamed field = null;
    while (!reader.atCommandEnd()) {
      if (Syntax.atOption(reader)) {
        Token key = reader.next();
        if (!key.text().equalsIgnoreCase("p")) {
          throw reader.error(key, "Unknown option '" + key.text() + "' for delta", "p");
        }
        reader.next();
        p = Syntax.whole(reader, reader.readValue("a number after p="), "delta p", 1, MAX_P);
      } else if (field == null) {
        field = Syntax.fieldAs(reader, "the field to compare");
      } else {
        throw reader.unexpected(reader.peek(), "p=<n>, '|' or the end of the query");
      }
    }
    if (field == null) {
      throw reader.unexpected(reader.peek(), "the field to compare");
    }
    Map<String, Object> values = new HashMap<>();
    values.put("field", field.field().text());
    values.put("as", field.as());
    values.put("p", p);
    return new CommandArguments(values, List.of());
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    String field = arguments.getString("field");
    String as = arguments.getString("as");
    return new Bound(field, as.isEmpty() ? "delta(" + field + ")" : as, arguments.getLong("p"));
  }

  record Bound(String field, String output, long p) implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      return new LinkedHashSet<>(List.of(field));
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(output);
    }

    @Override
    public String splArguments() {
      String text = SplText.word(field, Set.of("as"));
      if (!output.equals("delta(" + field + ")")) {
        text += " AS " + SplText.word(output, Set.of("as"));
      }
      return p == 1 ? text : text + " p=" + p;
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      ArrayDeque<Object> earlier =
          new ArrayDeque<>(); // the last p numbers (null: none), oldest first
      return new QueueOperator(factory, "delta") {
        @Override
        protected void process(Page page) {
          Block block = page.block(field);
          Cells.Column column = new Cells.Column();
          for (int pos = 0; pos < page.positionCount(); pos++) {
            Object number =
                block == null || block.isNull(pos)
                    ? null
                    : Conversions.number(Cells.values(block, pos).get(0), false);
            Object before = earlier.size() == p ? earlier.pollFirst() : null;
            column.add(number == null || before == null ? null : difference(number, before));
            earlier.addLast(number == null ? Missing.VALUE : number);
          }
          emit(factory.withColumn(page, output, column.build(factory, output)));
        }
      };
    }

    private static Object difference(Object now, Object before) {
      if (before == Missing.VALUE) {
        return null;
      }
      if (now instanceof Long a && before instanceof Long b) {
        try {
          return Math.subtractExact(a, b);
        } catch (ArithmeticException overflow) {
          return (double) a - b;
        }
      }
      return ((Number) now).doubleValue() - ((Number) before).doubleValue();
    }
  }

  /** A result without a number, held in the window (a deque takes no null). */
  enum Missing {
    VALUE
  }
}
