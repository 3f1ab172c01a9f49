package io.quarry.ql.command;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EventStatsCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.StreamStatsCommand;
import io.quarry.ql.parser.ExpressionParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code stats func[(field)] [as name] [, …] [by field[, …]]}, and the same for {@code eventstats}
 * and {@code streamstats} (which also take {@code current=}, {@code window=}, {@code global=}
 * first). Output names default to {@code count} and {@code func(field)}, as in Splunk.
 */
final class StatsParser implements CommandParser {
  private static final Set<String> STREAMSTATS_OPTIONS =
      Set.of(
          "current",
          "window",
          "global",
          "time_window",
          "reset_on_change",
          "reset_before",
          "reset_after");

  /** Which command of the stats family this parser reads. */
  enum Kind {
    STATS,
    EVENTSTATS,
    STREAMSTATS
  }

  private final Kind kind;

  StatsParser(Kind kind) {
    this.kind = kind;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    boolean current = true;
    int window = 0;
    boolean global = true;
    long timeWindow = -1;
    boolean resetOnChange = false;
    java.util.Optional<io.quarry.ql.ast.Expression> resetBefore = java.util.Optional.empty();
    java.util.Optional<io.quarry.ql.ast.Expression> resetAfter = java.util.Optional.empty();
    while (kind == Kind.STREAMSTATS && Arguments.atOption(reader)) {
      Arguments.Option option = Arguments.option(reader, "streamstats", STREAMSTATS_OPTIONS);
      switch (option.name()) {
        case "current" -> current = Arguments.bool(reader, option.value());
        case "global" -> global = Arguments.bool(reader, option.value());
        case "reset_on_change" -> resetOnChange = Arguments.bool(reader, option.value());
        case "reset_before" -> resetBefore = java.util.Optional.of(condition(reader, option));
        case "reset_after" -> resetAfter = java.util.Optional.of(condition(reader, option));
        case "time_window" -> {
          String text = option.value().text();
          io.quarry.ql.ast.Span span =
              io.quarry.ql.ast.Span.parse(text)
                  .filter(
                      s ->
                          s.isTime()
                              && s.unit() != java.time.temporal.ChronoUnit.MONTHS
                              && s.amount() > 0)
                  .orElseThrow(
                      () ->
                          reader.error(
                              option.value(),
                              "streamstats time_window must be a time span like 30s, 5m, 1h or 2d,"
                                  + " not '"
                                  + text
                                  + "'",
                              "a time span"));
          timeWindow = span.unit().getDuration().multipliedBy(span.amount()).toNanos() / 1000;
        }
        default -> {
          long size = Arguments.count(reader, option.value(), "streamstats window");
          if (size > 100_000) {
            throw reader.error(
                option.value(), "streamstats window is at most 100000", "a smaller window");
          }
          window = (int) size;
        }
      }
    }
    StatsCommand stats = stats(reader, name);
    if (kind != Kind.STATS) {
      noWildcards(
          reader, name, stats.aggregations(), kind.name().toLowerCase(java.util.Locale.ROOT));
    }
    perSpanOnlyInTimechart(
        reader, name, stats.aggregations(), kind.name().toLowerCase(java.util.Locale.ROOT));
    return switch (kind) {
      case STATS -> stats;
      case EVENTSTATS -> new EventStatsCommand(stats);
      case STREAMSTATS ->
          new StreamStatsCommand(
              stats, current, window, global, timeWindow, resetOnChange, resetBefore, resetAfter);
    };
  }

  /** Wildcard fields ({@code avg(*)}) are {@code stats}'s alone: a parse error elsewhere. */
  static void noWildcards(
      TokenReader reader, Token name, List<Aggregation> aggregations, String command) {
    for (Aggregation aggregation : aggregations) {
      if (io.quarry.ql.engine.aggregation.WildcardFields.isWildcard(aggregation)) {
        throw reader.error(
            name,
            command
                + " does not take wildcard fields ("
                + aggregation.outputName()
                + "); stats does",
            "a field name without *");
      }
    }
  }

  /** {@code per_second} … {@code per_day} need a time bucket: a parse error outside timechart. */
  static void perSpanOnlyInTimechart(
      TokenReader reader, Token name, List<Aggregation> aggregations, String command) {
    for (Aggregation aggregation : aggregations) {
      if (aggregation.function().perUnitSeconds() > 0) {
        throw reader.error(
            name,
            aggregation.function().functionName()
                + "() needs timechart's time buckets; "
                + command
                + " cannot use it",
            "timechart " + aggregation.function().functionName() + "(<field>)");
      }
    }
  }

  /** {@code reset_before="(<condition>)"}: an eval condition, in quotes (parentheses optional). */
  private static io.quarry.ql.ast.Expression condition(
      TokenReader reader, Arguments.Option option) {
    String text = option.value().text();
    io.quarry.ql.parser.ExpressionParser parser =
        new io.quarry.ql.parser.ExpressionParser(text, 0, text.length());
    try {
      if (parser.atEnd()) {
        throw parser.error(0, "an empty condition", "a condition");
      }
      io.quarry.ql.ast.Expression condition = parser.expression();
      if (!parser.atEnd()) {
        throw parser.error(parser.offset(), "Unexpected text after the condition", "the end");
      }
      EvalParser.check(parser, condition);
      return condition;
    } catch (io.quarry.ql.parser.QueryParseException e) {
      throw reader.error(
          option.value(),
          "streamstats " + option.name() + ": " + e.getMessage(),
          "an eval condition in quotes, such as \"(status>=500)\"");
    }
  }

  private static StatsCommand stats(TokenReader reader, Token name) {
    List<Aggregation> aggregations = new ArrayList<>();
    while (!reader.atCommandEnd() && !reader.peek().isWord("by")) {
      aggregations.add(aggregation(reader));
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (aggregations.isEmpty()) {
      throw reader.unexpected(
          reader.peek(),
          "an aggregation such as count, sum(field) or dc(field) after " + name.text());
    }
    List<String> groupBy = new ArrayList<>();
    if (reader.peek().isWord("by")) {
      reader.next();
      while (!reader.atCommandEnd()) {
        groupBy.add(reader.expect(TokenType.WORD, "a field name to group by").text());
        if (reader.at(TokenType.COMMA)) {
          reader.next();
        }
      }
      if (groupBy.isEmpty()) {
        throw reader.unexpected(reader.peek(), "a field name after 'by'");
      }
    }
    return new StatsCommand(aggregations, groupBy, name.position());
  }

  static Aggregation aggregation(TokenReader reader) {
    Token functionToken = reader.expect(TokenType.WORD, "an aggregation function");
    java.util.OptionalDouble percentile = AggregateFunction.percentile(functionToken.text());
    AggregateFunction function =
        (percentile.isPresent()
                ? Optional.of(AggregateFunction.PERCENTILE)
                : AggregateFunction.byName(functionToken.text()))
            .orElseThrow(
                () ->
                    reader.error(
                        functionToken,
                        "Unknown aggregation function '" + functionToken.text() + "'",
                        "one of " + AggregateFunction.allNames()));
    Optional<String> field = Optional.empty();
    io.quarry.ql.ast.Expression evaluated = null;
    if (reader.at(TokenType.LPAREN)) {
      reader.next();
      if (reader.peek().isWord("eval") && reader.peek(1).type() == TokenType.LPAREN) {
        Token eval = reader.next();
        Token open = reader.next();
        int depth = 1;
        Token close = open;
        while (depth > 0) {
          close = reader.next();
          if (close.type() == TokenType.EOF || close.type() == TokenType.PIPE) {
            throw reader.unexpected(close, "')' closing eval(");
          }
          depth += close.type() == TokenType.LPAREN ? 1 : close.type() == TokenType.RPAREN ? -1 : 0;
        }
        ExpressionParser expression =
            new ExpressionParser(reader.query(), open.end(), close.position().offset());
        if (expression.atEnd()) {
          throw reader.unexpected(close, "an expression inside eval( )");
        }
        evaluated = expression.expression();
        if (!expression.atEnd()) {
          throw expression.error(
              expression.offset(), "Unexpected text after the expression", "')'");
        }
        EvalParser.check(expression, evaluated);
        field = Optional.of(reader.query().substring(eval.position().offset(), close.end()));
      } else {
        field = Optional.of(reader.expect(TokenType.WORD, "a field name").text());
      }
      reader.expect(TokenType.RPAREN, "')' after the field name");
    } else if (function != AggregateFunction.COUNT) {
      throw reader.unexpected(reader.peek(), "'(' and a field name after " + functionToken.text());
    }
    String written = percentile.isPresent() ? functionToken.text() : function.functionName();
    String outputName = field.map(f -> written + "(" + f + ")").orElse(written);
    if (reader.peek().isWord("as")) {
      reader.next();
      outputName = reader.readValue("a name after 'as'").text();
    }
    Aggregation aggregation =
        percentile.isPresent()
            ? new Aggregation(function, field, outputName, percentile.getAsDouble())
            : new Aggregation(function, field, outputName);
    return evaluated == null ? aggregation : aggregation.withEvaluated(evaluated);
  }
}
