package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.TransactionCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code transaction [f, …] [maxspan=S] [maxpause=S] [maxevents=N] [startswith=F] [endswith=F]
 * [keepevicted=B] [mvlist=B|"f1,f2"] [connected=B] [unifyends=B] [keeporphans=B]}; F is a search
 * ({@code "action=login"}) or {@code eval(<condition>)}.
 */
final class TransactionParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of(
          "maxspan",
          "maxpause",
          "maxevents",
          "startswith",
          "endswith",
          "keepevicted",
          "mvlist",
          "connected",
          "unifyends",
          "keeporphans");

  @Override
  public Command parse(TokenReader reader, Token name) {
    List<String> fields = new ArrayList<>();
    long maxSpan = -1;
    long maxPause = -1;
    long maxEvents = 1000;
    java.util.Optional<TransactionCommand.Filter> startsWith = java.util.Optional.empty();
    java.util.Optional<TransactionCommand.Filter> endsWith = java.util.Optional.empty();
    boolean keepEvicted = false;
    List<String> mvList = List.of();
    boolean connected = true;
    boolean unifyEnds = false;
    boolean keepOrphans = false;
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)
          && (reader.peek().isWord("startswith") || reader.peek().isWord("endswith"))) {
        Token option = reader.next();
        reader.next(); // =
        TransactionCommand.Filter filter = filter(reader, option);
        if (option.isWord("startswith")) {
          startsWith = java.util.Optional.of(filter);
        } else {
          endsWith = java.util.Optional.of(filter);
        }
      } else if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, "transaction", OPTIONS);
        switch (option.name()) {
          case "maxspan" -> maxSpan = micros(reader, option);
          case "maxpause" -> maxPause = micros(reader, option);
          case "maxevents" -> {
            maxEvents = Arguments.count(reader, option.value(), "maxevents");
            if (maxEvents < 1) {
              throw reader.error(option.value(), "maxevents must be at least 1", "a number >= 1");
            }
          }
          case "keepevicted" -> keepEvicted = Arguments.bool(reader, option.value());
          case "connected" -> connected = Arguments.bool(reader, option.value());
          case "unifyends" -> unifyEnds = Arguments.bool(reader, option.value());
          case "keeporphans" -> keepOrphans = Arguments.bool(reader, option.value());
          default -> mvList = mvList(reader, option.value());
        }
      } else {
        fields.addAll(Arguments.fields(reader, Set.of()));
      }
    }
    return new TransactionCommand(
        fields,
        maxSpan,
        maxPause,
        maxEvents,
        startsWith,
        endsWith,
        keepEvicted,
        mvList,
        connected,
        unifyEnds,
        keepOrphans,
        name.position());
  }

  /** {@code mvlist=true|false}, or the fields to list, separated by commas or spaces. */
  private static List<String> mvList(TokenReader reader, Token value) {
    String text = value.text().strip();
    switch (text.toLowerCase(java.util.Locale.ROOT)) {
      case "true", "t", "1", "yes" -> {
        return List.of("*");
      }
      case "false", "f", "0", "no" -> {
        return List.of();
      }
      default -> {
        List<String> fields = new ArrayList<>();
        for (String field : text.split("[,\\s]+")) {
          if (!field.isEmpty()) {
            fields.add(field);
          }
        }
        if (fields.isEmpty() || fields.contains("*")) {
          throw reader.error(
              value, "mvlist takes true, false or field names", "mvlist=true or mvlist=\"a,b\"");
        }
        return List.copyOf(fields);
      }
    }
  }

  /**
   * A {@code startswith}/{@code endswith} value: {@code eval(<condition>)}, or a search expression
   * (quoted, {@code "action=login"}, or one bare term).
   */
  private static TransactionCommand.Filter filter(TokenReader reader, Token option) {
    Token first = reader.peek();
    if (first.isWord("eval")
        && reader.peek(1).type() == io.quarry.ql.parser.TokenType.LPAREN
        && reader.peek(1).position().offset() == first.end()) {
      reader.next();
      Token open = reader.next();
      int depth = 1;
      Token close;
      while (true) {
        Token token = reader.next();
        if (token.type() == io.quarry.ql.parser.TokenType.EOF) {
          throw reader.error(open, "eval( has no matching ')'", "')'");
        }
        if (token.type() == io.quarry.ql.parser.TokenType.LPAREN) {
          depth++;
        } else if (token.type() == io.quarry.ql.parser.TokenType.RPAREN && --depth == 0) {
          close = token;
          break;
        }
      }
      io.quarry.ql.parser.ExpressionParser parser =
          new io.quarry.ql.parser.ExpressionParser(
              reader.query(), open.end(), close.position().offset());
      io.quarry.ql.ast.Expression condition = parser.expression();
      if (!parser.atEnd()) {
        throw parser.error(parser.offset(), "Unexpected text after the condition", "')'");
      }
      EvalParser.check(parser, condition);
      return new TransactionCommand.Filter(
          reader.query().substring(first.position().offset(), close.end()), null, condition);
    }
    if (reader.atCommandEnd()) {
      throw reader.unexpected(
          reader.peek(), "a search or eval(<condition>) after " + option.text());
    }
    Token value = reader.readValue("a search in quotes or eval(<condition>)");
    io.quarry.ql.ast.SearchExpression search;
    try {
      search =
          new io.quarry.ql.parser.SearchExpressionParser(new TokenReader(value.text()))
              .parseCommandExpression()
              .orElseThrow(
                  () ->
                      reader.error(value, option.text() + " needs a search", "a search in quotes"));
    } catch (io.quarry.ql.parser.QueryParseException e) {
      throw reader.error(
          value, option.text() + ": " + e.getMessage(), "a search in quotes or eval(...)");
    }
    return new TransactionCommand.Filter(
        io.quarry.ql.parser.SplText.value(value.text()), search, null);
  }

  /** A fixed time span ({@code 30s}, {@code 5m}, {@code 1h}, {@code 2d}, {@code -1}: none). */
  private static long micros(TokenReader reader, Arguments.Option option) {
    String text = option.value().text();
    if (text.equals("-1")) {
      return -1;
    }
    Span span =
        Span.parse(text)
            .filter(s -> s.isTime() && s.unit() != ChronoUnit.MONTHS)
            .or(
                () ->
                    text.chars().allMatch(Character::isDigit)
                        ? Span.parse(text + "s")
                        : java.util.Optional.empty())
            .orElseThrow(
                () ->
                    reader.error(
                        option.value(),
                        option.name()
                            + " must be a time span like 30s, 5m, 1h or 2d, not '"
                            + text
                            + "'",
                        "a time span"));
    return span.unit().getDuration().multipliedBy(span.amount()).toNanos() / 1000;
  }
}
