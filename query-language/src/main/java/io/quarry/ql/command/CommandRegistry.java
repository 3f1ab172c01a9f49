package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.parser.SearchExpressionParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The search commands Quarry knows, by lower-case name: the built-ins and those plugins add ({@link
 * #withPlugin}). Generating commands ({@code inputlookup}, {@code help}, plugins' generating
 * commands) are only valid first, after a leading {@code |}.
 */
public final class CommandRegistry {
  private final Map<String, CommandParser> parsers;
  private final Map<String, CommandParser> generators;
  private final Map<String, CommandHelp> help;

  /** Commands that stand for several ({@code multisearch}, {@code union}), by name. */
  private static final Map<String, PipelineParser> EXPANDERS =
      Map.of("multisearch", new CombiningParser(true), "union", new CombiningParser(false));

  private CommandRegistry(
      Map<String, CommandParser> parsers,
      Map<String, CommandParser> generators,
      Map<String, CommandHelp> help) {
    this.parsers = Map.copyOf(parsers);
    this.generators = Map.copyOf(generators);
    this.help = Map.copyOf(help);
  }

  /**
   * The parser of a command that stands for several commands ({@code multisearch}, {@code union}),
   * valid first (after {@code |}) or, for {@code union}, later in the pipeline.
   */
  public Optional<PipelineParser> expander(String name) {
    return Optional.ofNullable(EXPANDERS.get(name.toLowerCase(Locale.ROOT)));
  }

  /** The built-in commands of this release. */
  public static CommandRegistry builtIns() {
    Map<String, CommandParser> parsers = new TreeMap<>();
    parsers.put("search", CommandRegistry::parseSearch);
    parsers.put("stats", new StatsParser(StatsParser.Kind.STATS));
    parsers.put("eventstats", new StatsParser(StatsParser.Kind.EVENTSTATS));
    parsers.put("streamstats", new StatsParser(StatsParser.Kind.STREAMSTATS));
    parsers.put("head", new HeadParser());
    parsers.put("sort", new SortParser());
    parsers.put("top", new TopParser(false));
    parsers.put("rare", new TopParser(true));
    parsers.put("table", new ProjectParser(true));
    parsers.put("fields", new ProjectParser(false));
    parsers.put("rename", new RenameParser());
    parsers.put("tail", new ReorderParser(true));
    parsers.put("reverse", new ReorderParser(false));
    parsers.put("dedup", new DedupParser());
    parsers.put("transaction", new TransactionParser());
    parsers.put("eval", new EvalParser(false));
    parsers.put("where", new EvalParser(true));
    parsers.put("rex", new RexParser());
    parsers.put("bin", new BinParser());
    parsers.put("bucket", new BinParser());
    parsers.put("timechart", new TimechartParser());
    parsers.put("chart", new ChartParser());
    parsers.put("fieldsummary", new FieldSummaryParser());
    parsers.put("lookup", new LookupParser());
    parsers.put("outputlookup", new OutputLookupParser());
    parsers.put("format", new FormatParser());
    parsers.put("return", new ReturnParser());
    parsers.put(
        "append", new SubsearchCommandParser(io.quarry.ql.ast.SubsearchCommand.Kind.APPEND));
    parsers.put(
        "appendcols",
        new SubsearchCommandParser(io.quarry.ql.ast.SubsearchCommand.Kind.APPENDCOLS));
    parsers.put("join", new SubsearchCommandParser(io.quarry.ql.ast.SubsearchCommand.Kind.JOIN));
    Map<String, CommandParser> generators = new TreeMap<>();
    generators.put("inputlookup", CommandRegistry::parseInputLookup);
    generators.put("makeresults", CommandRegistry::parseMakeResults);
    generators.put("tstats", new TstatsParser());
    generators.put("metadata", new IndexSummaryParser(IndexSummaryParser.Kind.METADATA));
    generators.put("eventcount", new IndexSummaryParser(IndexSummaryParser.Kind.EVENTCOUNT));
    generators.put("dbinspect", new IndexSummaryParser(IndexSummaryParser.Kind.DBINSPECT));
    generators.put("mstats", new MetricCommandParser(MetricCommandParser.Kind.MSTATS));
    generators.put("mcatalog", new MetricCommandParser(MetricCommandParser.Kind.MCATALOG));
    generators.put("mpreview", new MetricCommandParser(MetricCommandParser.Kind.MPREVIEW));
    return new CommandRegistry(parsers, generators, BuiltinHelp.all())
        .with(CommandHelp.BUILT_IN, io.quarry.ql.builtins.BuiltinCommands.all());
  }

  /**
   * This registry plus a plugin's commands.
   *
   * @throws IllegalArgumentException when a name is already taken (by a built-in or another plugin)
   *     or a command's declaration is inconsistent; nothing is added then
   */
  public CommandRegistry withPlugin(
      String plugin, List<io.quarry.plugin.api.command.CommandDefinition> commands) {
    if (plugin.equals(CommandHelp.BUILT_IN)) {
      throw new IllegalArgumentException("a plugin cannot be named '" + CommandHelp.BUILT_IN + "'");
    }
    return with(plugin, commands);
  }

  /**
   * This registry plus commands declared as plugins declare theirs: a plugin's, or the built-ins
   * written as page operators ({@code io.quarry.ql.builtins}, registered as {@link
   * CommandHelp#BUILT_IN}), which thereby share the plugins' parsing, help and execution.
   */
  private CommandRegistry with(
      String plugin, List<? extends io.quarry.plugin.api.command.CommandDefinition> commands) {
    Map<String, CommandParser> newParsers = new TreeMap<>(parsers);
    Map<String, CommandParser> newGenerators = new TreeMap<>(generators);
    Map<String, CommandHelp> newHelp = new TreeMap<>(help);
    for (io.quarry.plugin.api.command.CommandDefinition definition : commands) {
      String name = definition.name();
      if (name == null || !name.matches("[a-z][a-z0-9_]*")) {
        throw new IllegalArgumentException(
            "plugin '" + plugin + "': command name '" + name + "' is not a lower-case word");
      }
      CommandHelp taken = newHelp.get(name);
      if (taken != null) {
        throw new IllegalArgumentException(
            "plugin '"
                + plugin
                + "': command '"
                + name
                + "' is already defined by "
                + (taken.plugin().equals(CommandHelp.BUILT_IN)
                    ? "a built-in"
                    : "plugin '" + taken.plugin() + "'"));
      }
      if (definition.kind() == null) {
        throw new IllegalArgumentException(
            "plugin '" + plugin + "': command '" + name + "' has no kind");
      }
      PluginCommandParser parser = new PluginCommandParser(definition, plugin);
      (definition.kind() == io.quarry.plugin.api.command.CommandKind.GENERATING
              ? newGenerators
              : newParsers)
          .put(name, parser);
      newHelp.put(name, CommandHelp.of(definition, plugin));
    }
    return new CommandRegistry(newParsers, newGenerators, newHelp);
  }

  /** The parser of a generating command (valid only first, after {@code |}). */
  public Optional<CommandParser> generator(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return lower.equals("help")
        ? Optional.of(this::parseHelp)
        : Optional.ofNullable(generators.get(lower));
  }

  /** The names of the generating commands. */
  public Set<String> generatorNames() {
    Set<String> names = new TreeSet<>(generators.keySet());
    names.add("help");
    names.addAll(EXPANDERS.keySet());
    return names;
  }

  /** What {@code | help name} shows. */
  public Optional<CommandHelp> help(String name) {
    return Optional.ofNullable(help.get(name.toLowerCase(Locale.ROOT)));
  }

  /** Every command's help, by name. */
  public List<CommandHelp> help() {
    return new TreeMap<>(help).values().stream().toList();
  }

  private Command parseHelp(TokenReader reader, Token name) {
    if (reader.atCommandEnd()) {
      return new io.quarry.ql.ast.HelpCommand(
          help().stream().map(CommandHelp::summary).toList(), name.position());
    }
    Token command = reader.readValue("a command name");
    CommandHelp found =
        help(command.text())
            .orElseThrow(
                () ->
                    reader.error(
                        command,
                        "Unknown search command '"
                            + command.text()
                            + "'"
                            + suggest(command.text())
                                .map(s -> ". Did you mean '" + s + "'?")
                                .orElse(""),
                        "one of " + names()));
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after the command name");
    }
    return new io.quarry.ql.ast.HelpCommand(found.rows(), name.position());
  }

  private static Command parseMakeResults(TokenReader reader, Token name) {
    for (int i = 0; ; i++) {
      Token token = reader.peek(i);
      if (token.type() == io.quarry.ql.parser.TokenType.PIPE
          || token.type() == io.quarry.ql.parser.TokenType.EOF) {
        break;
      }
      if ((token.isWord("format") || token.isWord("data"))
          && reader.peek(i + 1).type() == io.quarry.ql.parser.TokenType.EQ) {
        // inline data: a built-in page command of its own (io.quarry.ql.builtins)
        return new PluginCommandParser(
                io.quarry.ql.builtins.BuiltinCommands.makeResultsFromData(), CommandHelp.BUILT_IN)
            .parse(reader, name);
      }
    }
    long count = 1;
    boolean annotate = false;
    while (Arguments.atOption(reader)) {
      Arguments.Option option =
          Arguments.option(reader, "makeresults", java.util.Set.of("count", "annotate"));
      if (option.name().equals("count")) {
        count = Arguments.count(reader, option.value(), "makeresults count");
        if (count < 1 || count > io.quarry.ql.ast.MakeResultsCommand.MAX_COUNT) {
          throw reader.error(
              option.value(),
              "makeresults count must be 1 to " + io.quarry.ql.ast.MakeResultsCommand.MAX_COUNT,
              "a count from 1 to " + io.quarry.ql.ast.MakeResultsCommand.MAX_COUNT);
        }
      } else {
        annotate = Arguments.bool(reader, option.value());
      }
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "count=<n>, annotate=<bool>, '|' or the end");
    }
    return new io.quarry.ql.ast.MakeResultsCommand(count, annotate, name.position());
  }

  private static Command parseInputLookup(TokenReader reader, Token name) {
    Token table = Arguments.lookupTableName(reader, "the name of a lookup table");
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after the table name");
    }
    return new io.quarry.ql.ast.InputLookupCommand(table.text(), name.position());
  }

  public Optional<CommandParser> lookup(String name) {
    return Optional.ofNullable(parsers.get(name.toLowerCase(Locale.ROOT)));
  }

  /** The parser of the {@code search} a query starts with when it names no command. */
  public CommandParser implicitSearch() {
    return CommandRegistry::parseSearchBody;
  }

  /** Every command name, generating ones included. */
  public Set<String> names() {
    return new TreeSet<>(help.keySet());
  }

  /** The known name closest to a misspelled one, if any is within two edits. */
  public Optional<String> suggest(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = 3;
    for (String candidate : names()) {
      int distance = editDistance(lower, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  private static Command parseSearch(TokenReader reader, Token name) {
    return parseSearchBody(reader, name);
  }

  private static Command parseSearchBody(TokenReader reader, Token start) {
    return new SearchCommand(
        new SearchExpressionParser(reader).parseCommandExpression(), start.position());
  }

  static int editDistance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
