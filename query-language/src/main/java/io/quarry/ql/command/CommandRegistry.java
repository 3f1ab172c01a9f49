package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.parser.SearchExpressionParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** The search commands Quarry knows, by lower-case name. */
public final class CommandRegistry {
  private final Map<String, CommandParser> parsers;

  private CommandRegistry(Map<String, CommandParser> parsers) {
    this.parsers = Map.copyOf(parsers);
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
    return new CommandRegistry(parsers);
  }

  public Optional<CommandParser> lookup(String name) {
    return Optional.ofNullable(parsers.get(name.toLowerCase(Locale.ROOT)));
  }

  /** The parser of the {@code search} a query starts with when it names no command. */
  public CommandParser implicitSearch() {
    return CommandRegistry::parseSearchBody;
  }

  public Set<String> names() {
    return new TreeSet<>(parsers.keySet());
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
