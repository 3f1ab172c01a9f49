package io.quarry.ql.parser;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
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
import io.quarry.ql.ast.SortKey;
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
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
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
      case StatsCommand stats -> "stats " + stats(stats);
      case EventStatsCommand eventStats -> "eventstats " + stats(eventStats.stats());
      case StreamStatsCommand streamStats -> streamStats(streamStats);
      case HeadCommand head -> "head " + head.limit();
      case SortCommand sort -> sort(sort);
      case TopCommand top -> top(top);
      case ProjectCommand project -> project(project);
      case RenameCommand rename ->
          "rename "
              + rename.renames().stream()
                  .map(r -> word(r.from(), Set.of("as")) + " as " + word(r.to(), Set.of("as")))
                  .collect(Collectors.joining(", "));
      case ReorderCommand reorder -> reorder.tail() ? "tail " + reorder.limit() : "reverse";
      case DedupCommand dedup -> dedup(dedup);
      case EvalCommand eval ->
          "eval "
              + eval.assignments().stream()
                  .map(a -> EvalText.field(a.field()) + "=" + EvalText.eval(a.expression()))
                  .collect(Collectors.joining(", "));
      case WhereCommand where -> "where " + EvalText.eval(where.condition());
      case RexCommand rex -> rex(rex);
      case BinCommand bin -> bin(bin);
      case TimechartCommand timechart -> ChartText.timechart(timechart);
      case ChartCommand chart -> ChartText.chart(chart);
      case FieldSummaryCommand summary ->
          summary.maxValues() == FieldSummaryCommand.DEFAULT_MAX_VALUES
              ? "fieldsummary"
              : "fieldsummary maxvals=" + summary.maxValues();
      case LookupCommand lookup -> lookup(lookup);
      case InputLookupCommand input -> "inputlookup " + value(input.table());
      case OutputLookupCommand output -> "outputlookup " + value(output.table());
      case MakeResultsCommand make ->
          "makeresults"
              + (make.count() == 1 ? "" : " count=" + make.count())
              + (make.annotate() ? " annotate=true" : "");
      case HelpCommand help -> help(help);
      case io.quarry.ql.ast.TstatsCommand tstats -> tstats(tstats);
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
      case PluginCommand plugin -> plugin(plugin);
      case TransactionCommand transaction -> transaction(transaction);
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

  // ---- commands ----

  private static String stats(StatsCommand stats) {
    return aggregations(stats.aggregations())
        + (stats.groupBy().isEmpty() ? "" : " by " + String.join(", ", stats.groupBy()));
  }

  private static String tstats(io.quarry.ql.ast.TstatsCommand tstats) {
    StatsCommand stats = tstats.stats();
    return "tstats "
        + aggregations(stats.aggregations())
        + tstats.where().map(w -> " where " + search(w)).orElse("")
        + (stats.groupBy().isEmpty() ? "" : " by " + String.join(", ", stats.groupBy()))
        + tstats.span().map(s -> " span=" + span(s)).orElse("");
  }

  private static String streamStats(StreamStatsCommand streamStats) {
    StringBuilder text = new StringBuilder("streamstats");
    if (!streamStats.current()) {
      text.append(" current=false");
    }
    if (streamStats.window() != 0) {
      text.append(" window=").append(streamStats.window());
    }
    if (!streamStats.global()) {
      text.append(" global=false");
    }
    if (streamStats.timeWindowMicros() > 0) {
      text.append(" time_window=").append(seconds(streamStats.timeWindowMicros()));
    }
    if (streamStats.resetOnChange()) {
      text.append(" reset_on_change=true");
    }
    streamStats
        .resetBefore()
        .ifPresent(c -> text.append(" reset_before=").append(quote("(" + EvalText.eval(c) + ")")));
    streamStats
        .resetAfter()
        .ifPresent(c -> text.append(" reset_after=").append(quote("(" + EvalText.eval(c) + ")")));
    return text.append(' ').append(stats(streamStats.stats())).toString();
  }

  static String aggregations(List<Aggregation> aggregations) {
    return aggregations.stream().map(SplText::aggregation).collect(Collectors.joining(", "));
  }

  private static String aggregation(Aggregation aggregation) {
    String function =
        aggregation.function() == AggregateFunction.PERCENTILE
            ? "perc" + number(aggregation.percentile())
            : aggregation.function().functionName();
    String written = aggregation.field().map(f -> function + "(" + f + ")").orElse(function);
    return written.equals(aggregation.outputName())
        ? written
        : written + " as " + value(aggregation.outputName());
  }

  private static String sort(SortCommand sort) {
    boolean countFirst = isCount(sort.keys().get(0).field()) && !sort.keys().get(0).descending();
    String limit =
        sort.limit() == SortCommand.DEFAULT_LIMIT && !countFirst
            ? ""
            : (sort.limit() == Long.MAX_VALUE ? 0 : sort.limit()) + " ";
    return "sort " + limit + sortKeys(sort.keys());
  }

  private static String sortKeys(List<SortKey> keys) {
    List<String> written = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      SortKey key = keys.get(i);
      String field = key.field();
      // a last key "d" or "desc" would reverse the others
      boolean reverses =
          i == keys.size() - 1 && (field.equalsIgnoreCase("d") || field.equalsIgnoreCase("desc"));
      String mode =
          switch (key.mode()) {
            case NUM -> "num";
            case STR -> "str";
            case AUTO -> reverses || field.startsWith("-") || field.startsWith("+") ? "auto" : null;
          };
      written.add(
          (key.descending() ? "-" : "") + (mode == null ? field : mode + "(" + field + ")"));
    }
    return String.join(", ", written);
  }

  private static String top(TopCommand top) {
    StringBuilder text = new StringBuilder(top.name());
    if (top.limit() != TopCommand.DEFAULT_LIMIT || isCount(top.fields().get(0))) {
      text.append(" limit=").append(top.limit() == Long.MAX_VALUE ? 0 : top.limit());
    }
    if (!top.countField().equals("count")) {
      text.append(" countfield=").append(value(top.countField()));
    }
    if (!top.percentField().equals("percent")) {
      text.append(" percentfield=").append(value(top.percentField()));
    }
    if (!top.showCount()) {
      text.append(" showcount=false");
    }
    if (!top.showPercent()) {
      text.append(" showperc=false");
    }
    text.append(' ').append(words(top.fields(), Set.of("by")));
    if (!top.by().isEmpty()) {
      text.append(" by ").append(words(top.by(), Set.of()));
    }
    return text.toString();
  }

  private static String project(ProjectCommand project) {
    String prefix =
        switch (project.kind()) {
          case TABLE -> "table ";
          case KEEP ->
              project.patterns().get(0).equals("-") || project.patterns().get(0).equals("+")
                  ? "fields + "
                  : "fields ";
          case REMOVE -> "fields - ";
        };
    return prefix + words(project.patterns(), Set.of());
  }

  private static String dedup(DedupCommand dedup) {
    StringBuilder text = new StringBuilder("dedup ");
    if (dedup.count() != 1 || isCount(dedup.fields().get(0))) {
      text.append(dedup.count()).append(' ');
    }
    text.append(words(dedup.fields(), Set.of("sortby")));
    if (dedup.keepEmpty()) {
      text.append(" keepempty=true");
    }
    if (dedup.consecutive()) {
      text.append(" consecutive=true");
    }
    if (!dedup.sortBy().isEmpty()) {
      text.append(" sortby ").append(sortKeys(dedup.sortBy()));
    }
    return text.toString();
  }

  private static String rex(RexCommand rex) {
    StringBuilder text = new StringBuilder("rex");
    if (!rex.field().equals("_raw")) {
      text.append(" field=").append(value(rex.field()));
    }
    if (rex.maxMatch() != 1) {
      text.append(" max_match=").append(rex.maxMatch() == Long.MAX_VALUE ? 0 : rex.maxMatch());
    }
    if (rex.sed() != null) {
      return text.append(" mode=sed ").append(quote(sed(rex.sed()))).toString();
    }
    String regex = rex.regex();
    for (RexCommand.Group group : rex.groups()) {
      regex = regex.replace("(?<" + group.javaName() + ">", "(?<" + group.field() + ">");
    }
    return text.append(' ').append(quote(regex)).toString();
  }

  /** {@code s/from/to/flags} or {@code y/from/to/}, with a delimiter neither part holds. */
  private static String sed(RexCommand.Sed sed) {
    char delimiter = '/';
    for (char candidate : "/#,;:!@%~^".toCharArray()) {
      if (sed.from().indexOf(candidate) < 0 && sed.to().indexOf(candidate) < 0) {
        delimiter = candidate;
        break;
      }
    }
    String escaped = "\\" + delimiter;
    String d = String.valueOf(delimiter);
    String flags =
        sed.transliterate() || sed.occurrence() == 1
            ? ""
            : sed.occurrence() == 0 ? "g" : String.valueOf(sed.occurrence());
    return (sed.transliterate() ? "y" : "s")
        + d
        + sed.from().replace(d, escaped)
        + d
        + sed.to().replace(d, escaped)
        + d
        + flags;
  }

  private static String bin(BinCommand bin) {
    StringBuilder text = new StringBuilder("bin");
    bin.span().ifPresent(span -> text.append(" span=").append(span(span)));
    if (bin.bins() != BinCommand.DEFAULT_BINS) {
      text.append(" bins=").append(bin.bins());
    }
    bin.minspan().ifPresent(span -> text.append(" minspan=").append(span(span)));
    bin.start().ifPresent(start -> text.append(" start=").append(number(start)));
    bin.end().ifPresent(end -> text.append(" end=").append(number(end)));
    text.append(' ').append(word(bin.field(), Set.of("as")));
    if (!bin.as().equals(bin.field())) {
      text.append(" as ").append(value(bin.as()));
    }
    return text.toString();
  }

  private static String lookup(LookupCommand lookup) {
    Function<LookupCommand.FieldMapping, String> mapping =
        m ->
            word(m.column(), Set.of("as", "output", "outputnew"))
                + (m.column().equals(m.field())
                    ? ""
                    : " as " + word(m.field(), Set.of("output", "outputnew")));
    StringBuilder text =
        new StringBuilder("lookup ")
            .append(value(lookup.table()))
            .append(' ')
            .append(lookup.keys().stream().map(mapping).collect(Collectors.joining(", ")));
    if (!lookup.outputs().isEmpty()) {
      text.append(lookup.outputNew() ? " OUTPUTNEW " : " OUTPUT ")
          .append(lookup.outputs().stream().map(mapping).collect(Collectors.joining(", ")));
    }
    return text.toString();
  }

  /** {@code help} or {@code help <command>}; the rows are what the parser resolved. */
  private static String help(HelpCommand help) {
    Set<Object> commands =
        help.rows().stream().map(r -> r.get("command")).collect(Collectors.toSet());
    return commands.size() == 1 ? "help " + commands.iterator().next() : "help";
  }

  /** A plugin command with every option it was bound with (defaults included), by name. */
  private static String plugin(PluginCommand plugin) {
    if (plugin.bound() instanceof io.quarry.ql.ast.WritesOwnSpl own) {
      String arguments = own.splArguments();
      return arguments.isEmpty() ? plugin.name() : plugin.name() + " " + arguments;
    }
    StringBuilder text = new StringBuilder(plugin.name());
    for (Map.Entry<String, Object> option : new TreeMap<>(plugin.arguments().values()).entrySet()) {
      text.append(' ').append(option.getKey()).append('=');
      text.append(
          option.getValue() instanceof String string
              ? value(string)
              : option.getValue() instanceof Double number ? number(number) : option.getValue());
    }
    if (!plugin.arguments().fields().isEmpty()) {
      text.append(' ').append(words(plugin.arguments().fields(), Set.of()));
    }
    return text.toString();
  }

  private static String transaction(TransactionCommand transaction) {
    StringBuilder text =
        new StringBuilder("transaction")
            .append(transaction.fields().isEmpty() ? "" : " ")
            .append(words(transaction.fields(), Set.of()));
    if (transaction.maxSpanMicros() >= 0) {
      text.append(" maxspan=").append(seconds(transaction.maxSpanMicros()));
    }
    if (transaction.maxPauseMicros() >= 0) {
      text.append(" maxpause=").append(seconds(transaction.maxPauseMicros()));
    }
    if (transaction.maxEvents() != 1000) {
      text.append(" maxevents=").append(transaction.maxEvents());
    }
    transaction.startsWith().ifPresent(f -> text.append(" startswith=").append(f.spl()));
    transaction.endsWith().ifPresent(f -> text.append(" endswith=").append(f.spl()));
    if (transaction.keepEvicted()) {
      text.append(" keepevicted=true");
    }
    if (transaction.mvList().equals(List.of("*"))) {
      text.append(" mvlist=true");
    } else if (!transaction.mvList().isEmpty()) {
      text.append(" mvlist=").append(quote(String.join(",", transaction.mvList())));
    }
    if (!transaction.connected()) {
      text.append(" connected=false");
    }
    if (transaction.unifyEnds()) {
      text.append(" unifyends=true");
    }
    if (transaction.keepOrphans()) {
      text.append(" keeporphans=true");
    }
    return text.toString();
  }

  private static String seconds(long micros) {
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
  private static String number(double number) {
    if (number == Math.rint(number) && Math.abs(number) < 1e15) {
      return Long.toString((long) number);
    }
    return BigDecimal.valueOf(number).toPlainString();
  }

  private static boolean isCount(String text) {
    return !text.isEmpty() && text.chars().allMatch(Character::isDigit);
  }

  /** Names read one by one (field lists): each a single word, else quoted. */
  private static String words(List<String> names, Set<String> stopWords) {
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
