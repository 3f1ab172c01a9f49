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
import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import io.quarry.ql.plan.RunsSearches;
import io.quarry.ql.plan.SubsearchRunner;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code map search="<search>" [maxsearches=<n>]} (or {@code map [<search>]}): runs the search once
 * per result, its {@code $field$} tokens replaced by the result's values ({@link MapTemplate}), and
 * answers with the searches' results one after another (the input results themselves are not passed
 * on, as in Splunk). At most {@code maxsearches} (default 10) searches run, the first results'
 * ones; with more results a message says so.
 *
 * <p>Centralized: it keeps only the values its tokens name of the first {@code maxsearches}
 * results, and runs the searches when its input ends, one at a time, through the runner the query's
 * subsearches run through ({@link RunsSearches}): the same user, indexes and search filter, the
 * job's time range unless the search names its own, at most {@value #MAX_ROWS} rows and {@value
 * #MAX_TIME_SECONDS} s each. A search that fails fails the whole search with its error.
 */
final class MapCommand implements CommandDefinition, CustomSyntax {
  static final long DEFAULT_MAX_SEARCHES = 10;
  static final long MAX_SEARCHES = 10_000;

  /** Rows one search gives at most (Splunk's subsearch maxout). */
  static final long MAX_ROWS = 10_000;

  /** Seconds one search runs at most (Splunk's subsearch maxtime). */
  static final long MAX_TIME_SECONDS = 60;

  @Override
  public String name() {
    return "map";
  }

  @Override
  public String description() {
    return "Runs a search once per result with $field$ replaced by the result's values.";
  }

  @Override
  public CommandKind kind() {
    return CommandKind.CENTRALIZED;
  }

  @Override
  public String syntax() {
    return "map (search=\"<search with $field$>\" | [<search>]) [maxsearches=<int>]";
  }

  @Override
  public List<ArgumentSpec> arguments() {
    return List.of(
        ArgumentSpec.required(
            "search", ArgumentType.STRING, "the search to run per result, with $field$ tokens"),
        ArgumentSpec.optional(
            "maxsearches",
            ArgumentType.LONG,
            Long.toString(DEFAULT_MAX_SEARCHES),
            "the most searches to run (the first results')"));
  }

  @Override
  public CommandArguments parseArguments(TokenReader reader, Token name) {
    long maxSearches = DEFAULT_MAX_SEARCHES;
    String search = null;
    boolean bracketed = false;
    while (!reader.atCommandEnd()) {
      if (Syntax.atOption(reader, "maxsearches")) {
        reader.next();
        reader.next();
        maxSearches =
            Syntax.whole(reader, reader.readValue("a number"), "map maxsearches", 1, MAX_SEARCHES);
      } else if (Syntax.atOption(reader, "search") && search == null) {
        reader.next();
        reader.next();
        Token value = reader.readValue("the search to run, in quotes");
        search = value.text().strip();
        if (search.isEmpty()) {
          throw reader.error(value, "map needs a search to run", "a search");
        }
      } else if (reader.at(TokenType.LBRACKET) && search == null) {
        search = bracketed(reader);
        bracketed = true;
      } else if (Syntax.atOption(reader)) {
        Token key = reader.peek();
        throw reader.error(
            key,
            "Unknown option '" + key.text() + "' for map",
            search == null ? "search=\"…\" or maxsearches" : "maxsearches");
      } else {
        Token unexpected = reader.peek();
        throw reader.error(
            unexpected,
            search == null && unexpected.type() == TokenType.WORD
                ? "map runs search=\"…\" or [ … ]; a saved search is run with"
                    + " search=\"| savedsearch "
                    + unexpected.text()
                    + "\" ($field$ tokens inside a saved search's own text are not replaced)"
                : "Unexpected '" + unexpected.text() + "' in map",
            "search=\"…\", [ … ] or maxsearches");
      }
    }
    if (search == null) {
      throw reader.error(name, "map needs a search: search=\"…\" or [ … ]", "search=\"…\"");
    }
    return new CommandArguments(
        Map.of(
            "search", new Search(search, bracketed, name.position()), "maxsearches", maxSearches),
        List.of());
  }

  /**
   * The text between {@code [} and its matching {@code ]}, not parsed: with its {@code $field$}
   * tokens it need not be a search until they are replaced.
   */
  private static String bracketed(TokenReader reader) {
    Token open = reader.next();
    int depth = 1;
    while (true) {
      Token token = reader.next();
      if (token.type() == TokenType.EOF) {
        throw reader.error(open, "map's '[' has no matching ']'", "a ']' to end the search");
      }
      if (token.type() == TokenType.LBRACKET) {
        depth++;
      } else if (token.type() == TokenType.RBRACKET && --depth == 0) {
        String text = reader.query().substring(open.end(), token.position().offset()).strip();
        if (text.isEmpty()) {
          throw reader.error(token, "map needs a search between '[' and ']'", "a search");
        }
        return text;
      }
    }
  }

  /** The search template as written, carried in the arguments with where {@code map} is. */
  record Search(String text, boolean bracketed, Position position) {
    @Override
    public String toString() {
      return bracketed ? "[ " + text + " ]" : "search=" + quoted(text);
    }

    /** Equal when written the same: where it stands is not part of a use. */
    @Override
    public boolean equals(Object other) {
      return other instanceof Search that && toString().equals(that.toString());
    }

    @Override
    public int hashCode() {
      return toString().hashCode();
    }

    private static String quoted(String text) {
      return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
  }

  @Override
  public BoundCommand bind(CommandArguments arguments) {
    if (!(arguments.values().get("search") instanceof Search search)) {
      throw new IllegalArgumentException("map needs search=\"…\" or [ … ]");
    }
    return new Bound(search, arguments.getLong("maxsearches"), null, false);
  }

  /**
   * A use of {@code map}; {@code runner} is null until the query's subsearches run (a map without
   * one fails when it runs: only the server runs searches); {@code readOnly} when that runner
   * refuses every search that writes.
   */
  record Bound(Search search, long maxSearches, SubsearchRunner runner, boolean readOnly)
      implements BoundCommand, WritesOwnSpl, RunsSearches {
    @Override
    public Set<String> requiredFields() {
      return new MapTemplate(search.text()).fields();
    }

    @Override
    public Set<String> producedFields() {
      return Set.of();
    }

    @Override
    public String splArguments() {
      return search + (maxSearches == DEFAULT_MAX_SEARCHES ? "" : " maxsearches=" + maxSearches);
    }

    @Override
    public BoundCommand withRunner(SubsearchRunner runner) {
      return new Bound(search, maxSearches, runner, false);
    }

    @Override
    public String searchTemplate(String placeholder) {
      return new MapTemplate(search.text()).withTokens(placeholder);
    }

    @Override
    public BoundCommand withReadOnlyRunner(SubsearchRunner runner) {
      return new Bound(search, maxSearches, runner, true);
    }

    @Override
    public boolean equals(Object other) {
      return other instanceof Bound that && splArguments().equals(that.splArguments());
    }

    @Override
    public int hashCode() {
      return splArguments().hashCode();
    }

    @Override
    public Operator createOperator(OperatorContext context) {
      if (runner == null) {
        throw new IllegalStateException("map runs searches only inside a search of the server");
      }
      return new MapOperator(
          new MapTemplate(search.text()), search.position(), maxSearches, runner, context);
    }
  }
}
