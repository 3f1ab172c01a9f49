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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code autoregress <field> [AS <newfield>] [p=<n>|p=<from>-<to>]}: copies the field's value(s)
 * from {@code n} results earlier (each of {@code from}…{@code to}) into {@code <field>_p<n>}, in
 * result order; {@code AS} names the one output of a single {@code p}. Null where there is no such
 * earlier result or it has no value.
 */
final class AutoregressCommand implements CommandDefinition, CustomSyntax {
  static final long MAX_P = 10_000;
  private static final Pattern RANGE = Pattern.compile("(\\d+)-(\\d+)");

  @Override
  public String name() {
    return "autoregress";
  }

  @Override
  public String description() {
    return "Copies a field's value from earlier results into the current one.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public String syntax() {
    return "autoregress <field> [AS <newfield>] [p=<n>|p=<from>-<to>]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the field to copy"),
        ArgumentSpec.optional("as", ArgumentType.FIELD, "", "the output of a single p"),
        ArgumentSpec.optional("from", ArgumentType.LONG, "1", "p, or the start of p's range"),
        ArgumentSpec.optional("to", ArgumentType.LONG, "1", "the end of p's range"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    long from = 1;
    long to = 1;
    Token range = null;
    Syntax.Renamed field = null;
    while (!reader.atCommandEnd()) {
      if (Syntax.atOption(reader)) {
        Token key = reader.next();
        if (!key.text().equalsIgnoreCase("p")) {
          throw reader.error(key, "Unknown option '" + key.text() + "' for autoregress", "p");
        }
        reader.next();
        range = reader.readValue("a number or a range after p=");
        Matcher m = RANGE.matcher(range.text());
        if (m.matches()) {
          from = parse(reader, range, m.group(1));
          to = parse(reader, range, m.group(2));
          if (from > to) {
            throw reader.error(range, "autoregress p range starts above its end", "<from>-<to>");
          }
        } else {
          from = to = Syntax.whole(reader, range, "autoregress p", 1, MAX_P);
        }
      } else if (field == null) {
        field = Syntax.fieldAs(reader, "the field to copy");
      } else {
        throw reader.unexpected(reader.peek(), "p=<n>, '|' or the end of the query");
      }
    }
    if (field == null) {
      throw reader.unexpected(reader.peek(), "the field to copy");
    }
    if (!field.as().isEmpty() && from != to) {
      throw reader.error(
          range, "autoregress takes AS only with a single p, not a range", "p=<n> with AS");
    }
    Map<String, Object> values = new HashMap<>();
    values.put("field", field.field().text());
    values.put("as", field.as());
    values.put("from", from);
    values.put("to", to);
    return new CommandArguments(values, List.of());
  }

  private static long parse(TokenReader reader, Token token, String digits) {
    try {
      long value = Long.parseLong(digits);
      if (value >= 1 && value <= MAX_P) {
        return value;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw reader.error(
        token, "autoregress p must be from 1 to " + MAX_P, "a whole number from 1 to " + MAX_P);
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    return new Bound(
        arguments.getString("field"),
        arguments.getString("as"),
        (int) arguments.getLong("from"),
        (int) arguments.getLong("to"));
  }

  record Bound(String field, String as, int from, int to) implements BoundCommand, WritesOwnSpl {
    String output(int p) {
      return as.isEmpty() ? field + "_p" + p : as;
    }

    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      Set<String> outputs = new LinkedHashSet<>();
      for (int p = from; p <= to; p++) {
        outputs.add(output(p));
      }
      return outputs;
    }

    @Override
    public String splArguments() {
      String text = SplText.word(field, Set.of("as"));
      if (!as.isEmpty()) {
        text += " AS " + SplText.word(as, Set.of("as"));
      }
      return text + " p=" + (from == to ? String.valueOf(from) : from + "-" + to);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      List<List<Object>> earlier = new ArrayList<>(); // a ring of the last `to` results' values
      return new QueueOperator(factory, "autoregress") {
        private long seen;

        @Override
        protected void process(Page page) {
          Block block = page.block(field);
          List<Cells.Column> columns = new ArrayList<>();
          for (int p = from; p <= to; p++) {
            columns.add(new Cells.Column());
          }
          for (int pos = 0; pos < page.positionCount(); pos++) {
            for (int p = from; p <= to; p++) {
              columns
                  .get(p - from)
                  .add(p <= seen ? earlier.get((int) ((seen - p) % to)) : List.of());
            }
            List<Object> values = block == null ? List.of() : Cells.values(block, pos);
            int slot = (int) (seen % to);
            if (slot == earlier.size()) {
              earlier.add(values);
              reserve(64);
            } else {
              earlier.set(slot, values);
            }
            seen++;
          }
          List<String> names = new ArrayList<>(columns.size());
          for (int p = from; p <= to; p++) {
            names.add(output(p));
          }
          emit(Cells.withColumns(factory, page, names, columns));
        }
      };
    }
  }
}
