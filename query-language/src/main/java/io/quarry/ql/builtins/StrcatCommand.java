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
import io.quarry.ql.parser.SplText;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code strcat [allrequired=<bool>] <source> … <dest-field>}: the sources' texts one after the
 * other into the last field named; a source is a field (its first value) or a quoted string. A
 * missing field adds nothing, or with {@code allrequired=t} leaves the destination unwritten.
 */
final class StrcatCommand implements CommandDefinition, CustomSyntax {

  /** One source: a field's value, or (for a quoted string) the text itself. */
  record Source(boolean literal, String text) {}

  @Override
  public String name() {
    return "strcat";
  }

  @Override
  public String description() {
    return "Concatenates fields and quoted strings into a new field.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.STREAMING;
  }

  @Override
  public String syntax() {
    return "strcat [allrequired=<bool>] <field>|\"<string>\" ... <dest-field>";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.optional(
            "allrequired",
            ArgumentType.BOOLEAN,
            "false",
            "write the destination only when every source field exists"),
        ArgumentSpec.required(
            "sources",
            ArgumentType.FIELD_LIST,
            "fields and quoted strings to join, then the destination field"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    boolean allRequired = false;
    List<String> encoded = new ArrayList<>(); // "f" or "s", then the text; the last: the dest
    List<Token> tokens = new ArrayList<>();
    while (!reader.atCommandEnd()) {
      Token first = reader.peek();
      if (tokens.isEmpty()
          && first.type() == TokenType.WORD
          && Syntax.atOption(reader, "allrequired")) {
        reader.next();
        reader.next();
        allRequired = Syntax.bool(reader, reader.readValue("true or false"));
        continue;
      }
      tokens.add(first.type() == TokenType.QUOTED ? reader.next() : reader.readValue("a field"));
    }
    if (tokens.size() < 2) {
      throw reader.error(
          tokens.isEmpty() ? name : tokens.get(0),
          "strcat needs at least one source and a destination field",
          "<source> ... <dest-field>");
    }
    Token destination = tokens.get(tokens.size() - 1);
    if (destination.type() == TokenType.QUOTED && destination.text().isEmpty()) {
      throw reader.error(destination, "strcat's destination field has no name", "a field name");
    }
    for (Token token : tokens.subList(0, tokens.size() - 1)) {
      encoded.add(token.type() == TokenType.QUOTED ? "s" : "f");
      encoded.add(token.text());
    }
    encoded.add(destination.text());
    return new CommandArguments(Map.of("allrequired", allRequired), encoded);
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    List<String> encoded = arguments.fields();
    List<Source> sources = new ArrayList<>();
    for (int i = 0; i + 1 < encoded.size(); i += 2) {
      sources.add(new Source(encoded.get(i).equals("s"), encoded.get(i + 1)));
    }
    return new Bound(arguments.getBoolean("allrequired"), sources, encoded.get(encoded.size() - 1));
  }

  record Bound(boolean allRequired, List<Source> sources, String destination)
      implements BoundCommand, WritesOwnSpl {
    @Override
    public Set<String> requiredFields() {
      Set<String> fields = new LinkedHashSet<>();
      for (Source source : sources) {
        if (!source.literal()) {
          fields.add(source.text());
        }
      }
      fields.add(destination); // kept as it was when allrequired leaves it unwritten
      return fields;
    }

    @Override
    public Set<String> producedFields() {
      return Set.of(destination);
    }

    @Override
    public String splArguments() {
      List<String> parts = new ArrayList<>();
      if (allRequired) {
        parts.add("allrequired=t");
      }
      for (Source source : sources) {
        parts.add(
            source.literal()
                ? SplText.quote(source.text())
                : SplText.word(source.text(), Set.of("allrequired")));
      }
      parts.add(SplText.word(destination, Set.of("allrequired")));
      return String.join(" ", parts);
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      BlockFactory factory = context.blockFactory();
      return new PageTransformOperator() {
        @Override
        protected Page process(Page input) {
          return concatenate(factory, input);
        }
      };
    }

    private Page concatenate(BlockFactory factory, Page page) {
      Block[] blocks = new Block[sources.size()];
      for (int i = 0; i < blocks.length; i++) {
        blocks[i] = sources.get(i).literal() ? null : page.block(sources.get(i).text());
      }
      Block previous = page.block(destination);
      Cells.Column column = new Cells.Column();
      StringBuilder text = new StringBuilder();
      for (int p = 0; p < page.positionCount(); p++) {
        text.setLength(0);
        boolean complete = true;
        for (int i = 0; i < blocks.length; i++) {
          if (sources.get(i).literal()) {
            text.append(sources.get(i).text());
          } else if (blocks[i] == null || blocks[i].isNull(p)) {
            complete = false;
          } else {
            text.append(Cells.text(Cells.values(blocks[i], p).get(0)));
          }
        }
        if (complete || !allRequired) {
          column.add(text.toString());
        } else {
          column.add(previous == null ? List.of() : Cells.values(previous, p));
        }
      }
      return factory.withColumn(page, destination, column.build(factory, destination));
    }
  }
}
