package io.quarry.ql.plan;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.Subsearch;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.ast.SubsearchResult;
import io.quarry.ql.exec.SearchTextFormat;
import io.quarry.ql.parser.QueryParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Runs a query's subsearches before it is planned, as Splunk does. A subsearch in search position
 * ({@code error [search … | return ip]}) is replaced in the query's text by the search text of its
 * rows ({@link SearchTextFormat#subsearchText}: {@code return}'s or {@code format}'s answer as is,
 * other rows formatted with Splunk's defaults, {@code NOT( )} — matching nothing — for none), at
 * most {@value #SEARCH_MAX_OUT} rows and {@value #SEARCH_MAX_TIME_SECONDS} s, and the text is
 * parsed again: that text is what a job shows. The subsearch of {@code append}, {@code appendcols}
 * and {@code join} runs too, its result pages bound into the command; a command that runs searches
 * while the pipeline runs ({@link RunsSearches}: {@code map}) is handed the runner.
 */
public final class SubsearchExpander {
  /** Rows a subsearch in search position gives at most (Splunk's subsearch maxout). */
  public static final long SEARCH_MAX_OUT = 10_000;

  /** Seconds a subsearch in search position runs at most (Splunk's subsearch maxtime). */
  public static final long SEARCH_MAX_TIME_SECONDS = 60;

  /** The query after expansion, its text, and what the subsearches' runs said. */
  public record Expanded(Query query, String text, List<String> messages) {}

  private SubsearchExpander() {}

  /** Whether the query has a subsearch anywhere at its top level. */
  public static boolean hasSubsearches(Query query) {
    return !searchSubsearches(query).isEmpty()
        || query.commands().stream()
            .anyMatch(c -> c instanceof SubsearchCommand || RunsSearches.of(c) != null);
  }

  /**
   * Runs the query's subsearches.
   *
   * @param reparse parses an expanded query text (macros already expanded)
   */
  public static Expanded expand(
      Query query, Function<String, Query> reparse, SubsearchRunner runner) {
    List<String> messages = new ArrayList<>();
    List<Subsearch> inSearch = searchSubsearches(query);
    Query current = query;
    String text = query.text();
    if (!inSearch.isEmpty()) {
      StringBuilder expanded = new StringBuilder(text);
      for (int i = inSearch.size() - 1; i >= 0; i--) {
        Subsearch subsearch = inSearch.get(i);
        SubsearchResult result =
            runner.run(subsearch, SEARCH_MAX_OUT, Duration.ofSeconds(SEARCH_MAX_TIME_SECONDS));
        messages.addAll(0, result.messages());
        expanded.replace(
            subsearch.start(), subsearch.end(), SearchTextFormat.subsearchText(result.pages()));
      }
      text = expanded.toString();
      current = reparse(text, query, inSearch.get(0), reparse);
    }
    List<Command> commands = new ArrayList<>();
    for (Command command : current.commands()) {
      if (command instanceof SubsearchCommand sub && sub.result() == null) {
        SubsearchResult result =
            runner.run(sub.subsearch(), sub.maxOut(), Duration.ofSeconds(sub.maxTimeSeconds()));
        messages.addAll(result.messages());
        commands.add(sub.withResult(result));
      } else if (RunsSearches.of(command) instanceof RunsSearches runs) {
        commands.add(((PluginCommand) command).withBound(runs.withRunner(runner)));
      } else {
        commands.add(command);
      }
    }
    return new Expanded(new Query(current.text(), commands), text, messages);
  }

  private static Query reparse(
      String text, Query original, Subsearch first, Function<String, Query> reparse) {
    Query parsed;
    try {
      parsed = reparse.apply(text);
    } catch (QueryParseException e) {
      throw new QueryParseException(
          "With its subsearches replaced by their results the search does not parse ("
              + e.getMessage()
              + "): "
              + text,
          original.text(),
          first.position(),
          "[",
          "subsearch results that make a valid search");
    }
    if (!searchSubsearches(parsed).isEmpty()) {
      throw new QueryParseException(
          "A subsearch's result holds another subsearch: " + text,
          original.text(),
          first.position(),
          "[",
          "subsearch results without '[ ]'");
    }
    return parsed;
  }

  /**
   * The query's subsearches, not run: those in search position and those of {@code append}, {@code
   * appendcols} and {@code join} (not the searches {@code map} makes from its results).
   */
  public static List<Subsearch> subsearches(Query query) {
    List<Subsearch> found = new ArrayList<>(searchSubsearches(query));
    for (Command command : query.commands()) {
      if (command instanceof SubsearchCommand sub) {
        found.add(sub.subsearch());
      }
    }
    return found;
  }

  /** The subsearches in search position of the query's search commands, in text order. */
  static List<Subsearch> searchSubsearches(Query query) {
    List<Subsearch> found = new ArrayList<>();
    for (Command command : query.commands()) {
      if (command instanceof SearchCommand search) {
        search.expression().ifPresent(e -> collect(e, found));
      }
    }
    found.sort(java.util.Comparator.comparingInt(Subsearch::start));
    return found;
  }

  private static void collect(SearchExpression expression, List<Subsearch> found) {
    switch (expression) {
      case SearchExpression.SubsearchTerm sub -> found.add(sub.subsearch());
      case SearchExpression.And and -> and.operands().forEach(o -> collect(o, found));
      case SearchExpression.Or or -> or.operands().forEach(o -> collect(o, found));
      case SearchExpression.Not not -> collect(not.operand(), found);
      default -> {}
    }
  }
}
