package io.quarry.ql.parser;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.FieldSummaryCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.HelpCommand;
import io.quarry.ql.ast.InputLookupCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.MakeResultsCommand;
import io.quarry.ql.ast.OutputLookupCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.ast.TransactionCommand;
import io.quarry.ql.ast.WhereCommand;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The AST written back as SPL, the inverse of the parsers: what {@code explain} shows instead of
 * the records' Java text ({@code status>=500}, not {@code Comparison[field=status, …]}).
 *
 * <p>Parsing the text again gives the same tree, positions aside, for every tree the parser makes
 * ({@code SplTextTest} checks this over a corpus of every command and random trees, {@code
 * ParserFuzzTest} over every input that parses). For that the writer follows the lexer and the
 * parsers: a value is written bare only when the lexer reads it back as the same value (else in
 * double quotes, with {@code \"} and {@code \\}), and a name where a parser also looks for options
 * or keywords ({@code by}, {@code as}, {@code sortby}) only when it is one word and not such a
 * keyword. Search expressions are parenthesised by {@code search}'s precedence ({@code NOT}, then
 * {@code OR}, then the implicit {@code AND}), so {@code a (b OR c)} is written {@code a b OR c} and
 * {@code NOT (a b)} keeps its parentheses; eval expressions by eval's (loosest first {@code OR},
 * {@code XOR}, {@code AND}, {@code NOT}, equality, relational, {@code + - .}, {@code * / %}, unary
 * minus; binary operators are left-associative), which {@link EvalText} writes.
 *
 * <p>Options at their default are left out ({@code sort} without its limit of 10,000, {@code top}
 * without {@code limit=10}), except a plugin command's, which shows every option it was bound with;
 * {@code head} and {@code tail} show their count. What the planner changed is written as it now is:
 * {@code sort -count | head 10} plans as {@code sort 10 -count | head 10}.
 */
public final class SplText {
  private SplText() {}

  /** A pipeline: its commands joined by {@code |}, a generating first command after a {@code |}. */
  public static String pipeline(List<? extends Command> commands) {
    StringBuilder text = new StringBuilder();
    for (Command command : commands) {
      if (!text.isEmpty() || generating(command)) {
        text.append(text.isEmpty() ? "| " : " | ");
      }
      text.append(command(command));
    }
    return text.toString();
  }

  private static boolean generating(Command command) {
    return switch (command) {
      case InputLookupCommand ignored -> true;
      case MakeResultsCommand ignored -> true;
      case io.quarry.ql.ast.TstatsCommand ignored -> true;
      case io.quarry.ql.ast.MetadataCommand ignored -> true;
      case io.quarry.ql.ast.EventCountCommand ignored -> true;
      case io.quarry.ql.ast.DbinspectCommand ignored -> true;
      case io.quarry.ql.ast.MetricCommand ignored -> true;
      case HelpCommand ignored -> true;
      case PluginCommand plugin ->
          plugin.kind() == io.quarry.plugin.api.command.CommandKind.GENERATING;
      default -> false;
    };
  }

  /** One command, without a leading {@code |}. */
  public static String command(Command command) {
    return switch (command) {
      case SearchCommand search ->
          search.expression().map(e -> "search " + search(e)).orElse("search");
      case StatsCommand stats -> "stats " + CommandText.stats(stats);
      case EventStatsCommand eventStats -> "eventstats " + CommandText.stats(eventStats.stats());
      case StreamStatsCommand streamStats -> CommandText.streamStats(streamStats);
      case HeadCommand head -> "head " + head.limit();
      case SortCommand sort -> CommandText.sort(sort);
      case TopCommand top -> CommandText.top(top);
      case ProjectCommand project -> CommandText.project(project);
      case RenameCommand rename ->
          "rename "
              + rename.renames().stream()
                  .map(r -> word(r.from(), Set.of("as")) + " as " + word(r.to(), Set.of("as")))
                  .collect(Collectors.joining(", "));
      case ReorderCommand reorder -> reorder.tail() ? "tail " + reorder.limit() : "reverse";
      case DedupCommand dedup -> CommandText.dedup(dedup);
      case EvalCommand eval ->
          "eval "
              + eval.assignments().stream()
                  .map(a -> EvalText.field(a.field()) + "=" + EvalText.eval(a.expression()))
                  .collect(Collectors.joining(", "));
      case WhereCommand where -> "where " + EvalText.eval(where.condition());
      case RexCommand rex -> CommandText.rex(rex);
      case BinCommand bin -> CommandText.bin(bin);
      case TimechartCommand timechart -> ChartText.timechart(timechart);
      case ChartCommand chart -> ChartText.chart(chart);
      case FieldSummaryCommand summary ->
          summary.maxValues() == FieldSummaryCommand.DEFAULT_MAX_VALUES
              ? "fieldsummary"
              : "fieldsummary maxvals=" + summary.maxValues();
      case LookupCommand lookup -> CommandText.lookup(lookup);
      case InputLookupCommand input -> "inputlookup " + value(input.table());
      case OutputLookupCommand output -> "outputlookup " + value(output.table());
      case MakeResultsCommand make ->
          "makeresults"
              + (make.count() == 1 ? "" : " count=" + make.count())
              + (make.annotate() ? " annotate=true" : "");
      case HelpCommand help -> CommandText.help(help);
      case io.quarry.ql.ast.TstatsCommand tstats -> CommandText.tstats(tstats);
      case io.quarry.ql.ast.MetricCommand metric -> metric.spl();
      case io.quarry.ql.ast.MetadataCommand metadata ->
          "metadata type="
              + metadata.type()
              + metadata.indexes().stream()
                  .map(i -> " index=" + value(i))
                  .collect(Collectors.joining());
      case io.quarry.ql.ast.EventCountCommand count ->
          "eventcount"
              + count.indexes().stream()
                  .map(i -> " index=" + value(i))
                  .collect(Collectors.joining())
              + (count.summarize() ? "" : " summarize=false");
      case io.quarry.ql.ast.DbinspectCommand dbinspect ->
          "dbinspect"
              + dbinspect.indexes().stream()
                  .map(i -> " index=" + value(i))
                  .collect(Collectors.joining());
      case PluginCommand plugin -> CommandText.plugin(plugin);
      case TransactionCommand transaction -> CommandText.transaction(transaction);
      case io.quarry.ql.ast.FormatCommand format -> SubsearchText.format(format);
      case io.quarry.ql.ast.ReturnCommand ret -> SubsearchText.returns(ret);
      case io.quarry.ql.ast.SubsearchCommand sub -> SubsearchText.command(sub);
    };
  }

  // ---- search expressions ----

  /** A search expression, as {@code search} reads it. */
  public static String search(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Term term when term.directive() != SearchExpression.Directive.NONE ->
          term.directive().name() + "(" + term.text() + ")";
      case SearchExpression.Term term ->
          !term.phrase() && isWord(term.text()) && !isSearchKeyword(term.text())
              ? term.text()
              : quote(term.text());
      case SearchExpression.Comparison comparison -> {
        String value =
            comparison.quoted() || !isValue(comparison.value())
                ? quote(comparison.value())
                : comparison.value();
        // "a!" then "=" would lex as "a" "!="
        String gap = comparison.field().endsWith("!") ? " " : "";
        yield comparison.field() + gap + comparison.operator().symbol() + value;
      }
      case SearchExpression.In in ->
          in.field()
              + " IN ("
              + in.values().stream()
                  .map(v -> isValue(v) ? v : quote(v))
                  .collect(Collectors.joining(", "))
              + ")";
      case SearchExpression.And and -> {
        List<String> operands = new ArrayList<>();
        for (SearchExpression operand : and.operands()) {
          operands.add(
              operand instanceof SearchExpression.And
                  ? "(" + search(operand) + ")"
                  : search(operand));
        }
        for (int i = 0; i + 1 < operands.size(); i++) {
          // "w IN (…)" would read as an IN list: the term IN before a parenthesis is a group
          if (operands.get(i).equals("IN") && operands.get(i + 1).startsWith("(")) {
            operands.set(i, "(IN)");
          }
        }
        yield String.join(" ", operands);
      }
      case SearchExpression.SubsearchTerm sub -> "[" + sub.subsearch().text() + "]";
      case SearchExpression.Or or when or.operands().isEmpty() -> "NOT()";
      case SearchExpression.Or or ->
          or.operands().stream()
              .map(
                  operand ->
                      operand instanceof SearchExpression.And
                              || operand instanceof SearchExpression.Or
                          ? "(" + search(operand) + ")"
                          : search(operand))
              .collect(Collectors.joining(" OR "));
      case SearchExpression.Not not ->
          "NOT "
              + (not.operand() instanceof SearchExpression.And
                      || not.operand() instanceof SearchExpression.Or
                  ? "(" + search(not.operand()) + ")"
                  : search(not.operand()));
    };
  }

  private static boolean isSearchKeyword(String text) {
    return text.equals("AND") || text.equals("OR") || text.equals("NOT");
  }

  static String seconds(long micros) {
    return micros % 1_000_000 == 0 ? micros / 1_000_000 + "s" : number(micros / 1e6) + "s";
  }

  /** A span as SPL writes it ({@code 5m}, {@code 10}). */
  public static String span(Span span) {
    if (!span.isTime()) {
      return number(span.width());
    }
    String unit =
        switch (span.unit()) {
          case SECONDS -> "s";
          case MINUTES -> "m";
          case HOURS -> "h";
          case DAYS -> "d";
          case WEEKS -> "w";
          case MONTHS -> "mon";
          default -> throw new IllegalArgumentException("not a span unit: " + span.unit());
        };
    return span.amount() + unit;
  }

  // ---- values ----

  /** A number without an exponent, and without {@code .0} when whole. */
  static String number(double number) {
    if (number == Math.rint(number) && Math.abs(number) < 1e15) {
      return Long.toString((long) number);
    }
    return BigDecimal.valueOf(number).toPlainString();
  }

  static boolean isCount(String text) {
    return !text.isEmpty() && text.chars().allMatch(Character::isDigit);
  }

  /** Names read one by one (field lists): each a single word, else quoted. */
  static String words(List<String> names, Set<String> stopWords) {
    return names.stream().map(n -> word(n, stopWords)).collect(Collectors.joining(", "));
  }

  /**
   * A name where the parser reads one value but also looks for options and keywords: bare when it
   * is one word and none of {@code stopWords}, else quoted.
   */
  public static String word(String text, Set<String> stopWords) {
    return isWord(text) && !stopWords.contains(text.toLowerCase(Locale.ROOT)) ? text : quote(text);
  }

  /** A value read by {@link TokenReader#readValue}: bare when it reads back whole, else quoted. */
  public static String value(String text) {
    return isValue(text) ? text : quote(text);
  }

  /** Whether the lexer reads {@code text} as one word, exactly. */
  private static boolean isWord(String text) {
    List<Token> tokens = tokens(text);
    return tokens != null
        && tokens.size() == 1
        && tokens.get(0).type() == TokenType.WORD
        && tokens.get(0).text().equals(text);
  }

  /**
   * Whether {@link TokenReader#readValue} reads {@code text} back as itself: a word and what is
   * glued to it ({@code /cart.do?a=b}), nothing skipped.
   */
  private static boolean isValue(String text) {
    if (text.isEmpty()) {
      return false;
    }
    TokenReader reader;
    try {
      reader = new TokenReader(text);
      Token value = reader.readValue("a value");
      return value.type() == TokenType.WORD
          && value.text().equals(text)
          && reader.at(TokenType.EOF);
    } catch (QueryParseException notOne) {
      return false;
    }
  }

  private static List<Token> tokens(String text) {
    try {
      List<Token> tokens = Lexer.tokenize(text);
      return tokens.subList(0, tokens.size() - 1); // without EOF
    } catch (QueryParseException notText) {
      return null;
    }
  }

  /** {@code "text"}, with {@code \"} and {@code \\}. */
  public static String quote(String text) {
    return quote(text, '"');
  }

  /** {@code text} in {@code quote}s, with that quote and {@code \\} escaped by a backslash. */
  static String quote(String text, char quote) {
    StringBuilder quoted = new StringBuilder().append(quote);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == quote || c == '\\') {
        quoted.append('\\');
      }
      quoted.append(c);
    }
    return quoted.append(quote).toString();
  }
}
