package io.quarry.ql.parser;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandRegistry;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses a whole pipeline: an implicit leading {@code search} unless the query starts with {@code
 * |}, then {@code |}-separated commands, each parsed by the parser the {@link CommandRegistry}
 * holds for its name.
 */
public final class Parser {
  private final CommandRegistry registry;

  public Parser(CommandRegistry registry) {
    this.registry = registry;
  }

  public Query parse(String query) {
    TokenReader reader = new TokenReader(query);
    if (reader.at(TokenType.EOF)) {
      throw reader.error(reader.peek(), "Empty query", "a search or a command");
    }
    List<Command> commands = new ArrayList<>();
    if (reader.at(TokenType.PIPE)) {
      reader.next();
      Token name = reader.expect(TokenType.WORD, "a command name after '|'");
      if (!name.isWord("inputlookup")) {
        throw reader.error(
            name,
            "A query that starts with '|' needs a generating command; '"
                + name.text()
                + "' is not one (the generating commands: inputlookup)",
            "a search expression without the leading '|', or | inputlookup");
      }
      Token table = reader.readValue("the name of a lookup table");
      commands.add(new io.quarry.ql.ast.InputLookupCommand(table.text(), name.position()));
      if (!reader.atCommandEnd()) {
        throw reader.unexpected(reader.peek(), "'|' or the end of the query after the table name");
      }
    } else if (reader.peek().isWord("search")) {
      commands.add(command(reader));
    } else {
      commands.add(registry.implicitSearch().parse(reader, reader.peek()));
    }
    while (!reader.at(TokenType.EOF)) {
      reader.expect(TokenType.PIPE, "'|' or the end of the query");
      commands.add(command(reader));
    }
    return new Query(query, commands);
  }

  private Command command(TokenReader reader) {
    Token name = reader.expect(TokenType.WORD, "a command name");
    return registry
        .lookup(name.text())
        .orElseThrow(
            () -> {
              String suggestion =
                  registry.suggest(name.text()).map(s -> ". Did you mean '" + s + "'?").orElse("");
              return reader.error(
                  name,
                  "Unknown search command '" + name.text() + "'" + suggestion,
                  "one of " + registry.names());
            })
        .parse(reader, name);
  }
}
