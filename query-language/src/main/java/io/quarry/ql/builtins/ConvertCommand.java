package io.quarry.ql.builtins;

import io.quarry.plugin.api.command.ArgumentSpec;
import io.quarry.plugin.api.command.ArgumentType;
import io.quarry.plugin.api.command.BoundCommand;
import io.quarry.plugin.api.command.CommandArguments;
import io.quarry.plugin.api.command.CommandDefinition;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.command.OperatorContext;
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code convert [timeformat=<format>] <function>(<field>) [AS <field>] ...}: converts field values
 * in place, or into a new field with {@code AS}; a field may be a wildcard ({@code auto(*)}, {@code
 * dur2sec(*_delay) AS *_secs}). The arguments are kept as (function, field, as) triples in the
 * field list of {@link CommandArguments}.
 */
final class ConvertCommand implements CommandDefinition, CustomSyntax {
  static final String DEFAULT_TIMEFORMAT = "%m/%d/%Y %H:%M:%S";

  /** One conversion: a function over a field (or wildcard), into {@code as} when not empty. */
  record Conversion(String function, String field, String as) {
    String target(String matched) {
      return as.isEmpty() ? matched : Fields.substitute(field, matched, as);
    }
  }

  @Override
  public String name() {
    return "convert";
  }

  @Override
  public String description() {
    return "Converts field values: to numbers (auto, num, rmcomma, rmunit, memk, dur2sec, mstime)"
        + " and between epoch and text times (ctime, mktime).";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return "convert [timeformat=<format>] <function>(<field>) [AS <field>] ... — functions: "
        + String.join(", ", Conversions.NAMES);
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "timeformat",
            ArgumentType.STRING,
            DEFAULT_TIMEFORMAT,
            "the strftime format ctime writes and mktime reads"),
        ArgumentSpec.required(
            "conversions",
            ArgumentType.FIELD_LIST,
            "function(field) [AS field]: a field may use * wildcards"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    String timeformat = DEFAULT_TIMEFORMAT;
    List<String> triples = new ArrayList<>();
    while (!reader.atCommandEnd()) {
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      Token first = reader.peek();
      if (first.type() == TokenType.WORD
          && reader.peek(1).type() == TokenType.EQ
          && reader.peek(1).position().offset() == first.end()) {
        if (!first.text().equalsIgnoreCase("timeformat")) {
          throw reader.error(
              first, "Unknown option '" + first.text() + "' for convert", "timeformat");
        }
        reader.next();
        reader.next();
        timeformat = reader.readValue("a time format").text();
        continue;
      }
      Token function = reader.expect(TokenType.WORD, "a conversion such as auto(field)");
      String lower = function.text().toLowerCase(Locale.ROOT);
      if (!Conversions.NAMES.contains(lower)) {
        throw reader.error(
            function,
            "Unknown convert function '" + function.text() + "'",
            "one of " + String.join(", ", Conversions.NAMES));
      }
      reader.expect(TokenType.LPAREN, "'(' after " + lower);
      Token field = reader.readValue("a field name or wildcard");
      reader.expect(TokenType.RPAREN, "')' after the field");
      String as = "";
      if (reader.peek().isWord("as")) {
        Token keyword = reader.next();
        Token target = reader.readValue("a field name after AS");
        if (lower.equals("none")) {
          throw reader.error(keyword, "none() takes no AS", "another conversion or the end");
        }
        if (Fields.stars(target.text()) > Fields.stars(field.text())) {
          throw reader.error(
              target,
              "AS " + target.text() + " has more wildcards than " + field.text(),
              "a field name with at most as many * as the converted field");
        }
        as = target.text();
      }
      triples.add(lower);
      triples.add(field.text());
      triples.add(as);
    }
    if (triples.isEmpty()) {
      throw reader.error(
          name, "convert needs at least one conversion such as auto(field)", "a conversion");
    }
    return new CommandArguments(Map.of("timeformat", timeformat), triples);
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    List<String> fields = arguments.fields();
    List<Conversion> conversions = new ArrayList<>();
    for (int i = 0; i + 2 < fields.size(); i += 3) {
      conversions.add(new Conversion(fields.get(i), fields.get(i + 1), fields.get(i + 2)));
    }
    return new Bound(arguments.getString("timeformat"), conversions);
  }

  record Bound(String timeformat, List<Conversion> conversions)
      implements BoundCommand, WritesOwnSpl, io.quarry.ql.command.FieldWise {
    @Override
    public boolean fieldWise() {
      return conversions.stream().allMatch(conversion -> conversion.as().isEmpty());
    }

    @Override
    public Set<String> requiredFields() {
      Set<String> fields = new LinkedHashSet<>();
      for (Conversion conversion : conversions) {
        if (Fields.stars(conversion.field()) > 0) {
          return ALL_FIELDS;
        }
        fields.add(conversion.field());
      }
      return fields;
    }

    @Override
    public Set<String> producedFields() {
      Set<String> fields = new LinkedHashSet<>();
      for (Conversion conversion : conversions) {
        if (!conversion.function().equals("none")) {
          fields.add(conversion.as().isEmpty() ? conversion.field() : conversion.as());
        }
      }
      return fields;
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      if (!timeformat.equals(DEFAULT_TIMEFORMAT)) {
        parts.add("timeformat=" + SplText.value(timeformat));
      }
      for (Conversion conversion : conversions) {
        String text = conversion.function() + "(" + SplText.value(conversion.field()) + ")";
        if (!conversion.as().isEmpty()) {
          text += " as " + SplText.word(conversion.as(), Set.of("as"));
        }
        parts.add(text);
      }
      return String.join(" ", parts);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      return new ConvertOperator(context, timeformat, conversions);
    }
  }
}
