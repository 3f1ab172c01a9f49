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
import io.quarry.ql.ast.WritesOwnSpl;
import io.quarry.ql.command.CustomSyntax;
import io.quarry.ql.exec.Values;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code rangemap field=<field> [<name>=<min>-<max>] … [default=<name>]}: the field {@code range}
 * set to the names of the ranges (bounds included) the field's number falls in — a multivalue when
 * several overlap, in the order written — or to {@code default} ({@code None}) when none does, the
 * field is missing or not a number. The ranges are kept as (name, min, max) triples in the field
 * list of {@link CommandArguments}.
 */
final class RangemapCommand implements CommandDefinition, CustomSyntax {
  static final String OUTPUT = "range";
  private static final String NUMBER = "-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)";
  private static final Pattern RANGE = Pattern.compile("(" + NUMBER + ")-(" + NUMBER + ")");

  /** One named range, bounds included. */
  record Range(String name, double min, double max) {}

  @Override
  public String name() {
    return "rangemap";
  }

  @Override
  public String description() {
    return "Sets the field range to the names of the numeric ranges a field's value falls in.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return "rangemap field=<field> [<name>=<min>-<max>]... [default=<name>]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required("field", ArgumentType.FIELD, "the numeric field to classify"),
        ArgumentSpec.optional(
            "default", ArgumentType.STRING, "None", "range's value when no range matches"),
        ArgumentSpec.optional(
            "ranges",
            ArgumentType.FIELD_LIST,
            null,
            "<name>=<min>-<max>: bounds included, integers or decimals, negative allowed"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    String field = null;
    String fallback = "None";
    List<String> triples = new ArrayList<>();
    Map<String, Token> names = new HashMap<>();
    while (!reader.atCommandEnd()) {
      if (!Syntax.atOption(reader)) {
        throw reader.unexpected(
            reader.peek(), "field=<field>, <name>=<min>-<max> or default=<name>");
      }
      Token key = reader.next();
      reader.next(); // =
      Token value = reader.readValue("a value for " + key.text());
      switch (key.text().toLowerCase(Locale.ROOT)) {
        case "field" -> field = value.text();
        case "default" -> fallback = value.text();
        default -> {
          Matcher m = RANGE.matcher(value.text());
          if (!m.matches()) {
            throw reader.error(
                value,
                "rangemap range '" + key.text() + "' is not <min>-<max>: '" + value.text() + "'",
                "two numbers joined by '-', such as 0-100 or -5--1");
          }
          double min = Double.parseDouble(m.group(1));
          double max = Double.parseDouble(m.group(2));
          if (min > max) {
            throw reader.error(
                value,
                "rangemap range '" + key.text() + "' starts above its end",
                "<min>-<max> with min at most max");
          }
          if (names.put(key.text(), key) != null) {
            throw reader.error(key, "rangemap range '" + key.text() + "' is given twice", "");
          }
          triples.add(key.text());
          triples.add(m.group(1));
          triples.add(m.group(2));
        }
      }
    }
    if (field == null) {
      throw reader.error(name, "rangemap needs field=<field>", "field=<field>");
    }
    return new CommandArguments(Map.of("field", field, "default", fallback), triples);
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    List<String> triples = arguments.fields();
    List<Range> ranges = new ArrayList<>();
    for (int i = 0; i + 2 < triples.size(); i += 3) {
      ranges.add(
          new Range(
              triples.get(i),
              Double.parseDouble(triples.get(i + 1)),
              Double.parseDouble(triples.get(i + 2))));
    }
    return new Bound(arguments.getString("field"), arguments.getString("default"), ranges);
  }

  record Bound(String field, String fallback, List<Range> ranges)
      implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      return Set.of(field);
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(OUTPUT);
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      parts.add("field=" + SplText.value(field));
      for (Range range : ranges) {
        parts.add(range.name() + "=" + bound(range.min()) + "-" + bound(range.max()));
      }
      if (!fallback.equals("None")) {
        parts.add("default=" + SplText.value(fallback));
      }
      return String.join(" ", parts);
    }

    private static String bound(double value) {
      return Values.toText(value);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          return classify(factory, input);
        }
      };
    }

    private Page classify(BlockFactory factory, Page page) {
      Block block = page.block(field);
      Cells.Column column = new Cells.Column();
      List<Object> names = new ArrayList<>();
      for (int p = 0; p < page.positionCount(); p++) {
        names.clear();
        double value =
            block == null || block.isNull(p)
                ? Double.NaN
                : Values.toNumber(Cells.values(block, p).get(0));
        if (!Double.isNaN(value)) {
          for (Range range : ranges) {
            if (value >= range.min() && value <= range.max()) {
              names.add(range.name());
            }
          }
        }
        column.add(names.isEmpty() ? List.of(fallback) : List.copyOf(names));
      }
      return factory.withColumn(page, OUTPUT, column.build(factory, OUTPUT));
    }
  }
}
