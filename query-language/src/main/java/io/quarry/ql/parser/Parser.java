package io.quarry.ql.parser;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.command.CommandParser;
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
  private final java.util.function.Supplier<Macros> macros;

  /** A parser that knows no search macros: a {@code `macro`} is an error naming it. */
  public Parser(CommandRegistry registry) {
    this(registry, Macros.NONE);
  }

  /** A parser that expands {@code macros} before it parses ({@link #expand}). */
  public Parser(CommandRegistry registry, Macros macros) {
    this(registry, () -> macros);
    java.util.Objects.requireNonNull(macros, "macros is null");
  }

  /** A parser that expands the macros {@code macros} gives at each parse (they may change). */
  public Parser(CommandRegistry registry, java.util.function.Supplier<Macros> macros) {
    this.registry = registry;
    this.macros = java.util.Objects.requireNonNull(macros, "macros is null");
  }

  /**
   * The query with its search macros expanded: what is parsed, and what a job shows as its search.
   *
   * @throws QueryParseException for an unknown macro, a wrong number of arguments or a cycle
   */
  public String expand(String query) {
    return macros.get().expand(query);
  }

  /** Parses the query after expanding its macros; positions refer to the expanded text. */
  public Query parse(String query) {
    return parseExpanded(expand(query), 0);
  }

  /**
   * Parses a query whose macros were expanded already (a search after its subsearches were replaced
   * by their results): backquotes in it are text.
   */
  public Query parseExpandedQuery(String query) {
    return parseExpanded(query, 0);
  }

  /** Subsearches nest at most this deep. */
  public static final int MAX_SUBSEARCH_DEPTH = 10;

  private Query parseExpanded(String query, int depth) {
    TokenReader reader =
        new TokenReader(
            query,
            depth >= MAX_SUBSEARCH_DEPTH
                ? padded -> {
                  throw new QueryParseException(
                      "Subsearches nest deeper than " + MAX_SUBSEARCH_DEPTH + " levels",
                      query,
                      Position.START,
                      "[",
                      "at most " + MAX_SUBSEARCH_DEPTH + " nested subsearches");
                }
                : padded -> parseExpanded(padded, depth + 1));
    if (reader.at(TokenType.EOF)) {
      throw reader.error(reader.peek(), "Empty query", "a search or a command");
    }
    List<Command> commands = new ArrayList<>();
    if (reader.at(TokenType.PIPE)
        && reader.peek(1).type() == TokenType.WORD
        && registry.expander(reader.peek(1).text()).isPresent()) {
      reader.next();
      Token name = reader.next();
      commands.addAll(registry.expander(name.text()).orElseThrow().parse(reader, name, true));
    } else if (reader.at(TokenType.PIPE)) {
      reader.next();
      Token name = reader.expect(TokenType.WORD, "a command name after '|'");
      CommandParser generator =
          registry
              .generator(name.text())
              .orElseThrow(
                  () ->
                      reader.error(
                          name,
                          "A query that starts with '|' needs a generating command; '"
                              + name.text()
                              + "' is not one (the generating commands: "
                              + String.join(", ", registry.generatorNames())
                              + ")",
                          "a search expression without the leading '|', or | "
                              + String.join(", | ", registry.generatorNames())));
      commands.add(generator.parse(reader, name));
    } else if (reader.peek().isWord("search")) {
      commands.add(command(reader));
    } else {
      commands.add(registry.implicitSearch().parse(reader, reader.peek()));
    }
    while (!reader.at(TokenType.EOF)) {
      reader.expect(TokenType.PIPE, "'|' or the end of the query");
      Token next = reader.peek();
      if (next.type() == TokenType.WORD && registry.expander(next.text()).isPresent()) {
        reader.next();
        commands.addAll(registry.expander(next.text()).orElseThrow().parse(reader, next, false));
      } else {
        commands.add(command(reader));
      }
    }
    return new Query(query, commands);
  }

  /** Whether the options at the reader ({@code name=value} …) hold {@code append=t(rue)}. */
  private static boolean appendOption(TokenReader reader) {
    for (int i = 0;
        reader.peek(i).type() == TokenType.WORD && reader.peek(i + 1).type() == TokenType.EQ;
        i += 3) {
      if (reader.peek(i).isWord("append")) {
        String value = reader.peek(i + 2).text().toLowerCase(java.util.Locale.ROOT);
        return value.equals("t") || value.equals("true") || value.equals("1");
      }
    }
    return false;
  }

  private Command command(TokenReader reader) {
    Token name = reader.expect(TokenType.WORD, "a command name");
    if (registry.generator(name.text()).isPresent()) {
      if (appendOption(reader)) { // mstats append=true: takes the rows before it, adds its own
        Command appending = registry.generator(name.text()).orElseThrow().parse(reader, name);
        if (appending instanceof io.quarry.ql.ast.MstatsCommand mstats && mstats.append()) {
          return appending;
        }
      }
      throw reader.error(
          name,
          "'"
              + name.text()
              + "' generates rows: it can only be the first command (| "
              + name.text()
              + " …)",
          "a command that takes rows");
    }
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
