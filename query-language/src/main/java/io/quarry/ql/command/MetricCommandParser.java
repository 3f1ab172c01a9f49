package io.quarry.ql.command;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.McatalogCommand;
import io.quarry.ql.ast.MetricAggregation;
import io.quarry.ql.ast.MetricFunction;
import io.quarry.ql.ast.MpreviewCommand;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.Span;
import io.quarry.ql.parser.SearchExpressionParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The generating commands over metric indexes:
 *
 * <ul>
 *   <li>{@code | mstats [prestats=<bool>] [append=<bool>] <function>(<metric>) [AS <name>]… [where
 *       <search>] [by <dimension>…] [span=<span>]} ({@code span=} also before {@code by}); with
 *       {@code append=true} (only with {@code prestats=true}, as in Splunk) also later in a
 *       pipeline, which {@code Parser} allows for it;
 *   <li>{@code | mcatalog values(<field>) [AS <name>]… [where <search>] [by <field>…]};
 *   <li>{@code | mpreview [target_per_timeseries=<n>] [filter="<search>"] [<search>]}.
 * </ul>
 *
 * {@code chart=true} is an error (not built).
 */
final class MetricCommandParser implements CommandParser {
  enum Kind {
    MSTATS,
    MCATALOG,
    MPREVIEW
  }

  private final Kind kind;

  MetricCommandParser(Kind kind) {
    this.kind = kind;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    return switch (kind) {
      case MSTATS -> mstats(reader, name);
      case MCATALOG -> mcatalog(reader, name);
      case MPREVIEW -> mpreview(reader, name);
    };
  }

  private static Command mstats(TokenReader reader, Token name) {
    boolean prestats = false;
    boolean append = false;
    Token appendValue = null;
    while (Arguments.atOption(reader)) {
      Arguments.Option option =
          Arguments.option(reader, "mstats", Set.of("prestats", "append", "chart"));
      boolean on = Arguments.bool(reader, option.value());
      if (option.name().equals("prestats")) {
        prestats = on;
      } else if (option.name().equals("append")) {
        append = on;
        appendValue = option.value();
      } else if (on) {
        throw reader.error(
            option.value(),
            "mstats " + option.name() + "=true is not supported yet",
            option.name() + "=false");
      }
    }
    List<MetricAggregation> aggregations = new ArrayList<>();
    while (!reader.atCommandEnd() && !atWord(reader, "where", "by", "span")) {
      aggregations.add(aggregation(reader));
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (aggregations.isEmpty()) {
      throw reader.unexpected(
          reader.peek(), "an aggregation such as avg(cpu.user) or max(_value) after mstats");
    }
    Optional<SearchExpression> where = Optional.empty();
    List<String> groupBy = new ArrayList<>();
    Optional<Span> span = Optional.empty();
    while (!reader.atCommandEnd()) {
      if (atWord(reader, "where") && where.isEmpty()) {
        reader.next();
        if (reader.atCommandEnd()) {
          throw reader.unexpected(reader.peek(), "a search after where");
        }
        where = TstatsParser.searchClause(reader, true, true);
      } else if (atWord(reader, "by") && groupBy.isEmpty()) {
        reader.next();
        groupBy = byFields(reader);
      } else if (reader.peek().isWord("span")
          && reader.peek(1).type() == TokenType.EQ
          && span.isEmpty()) {
        reader.next();
        reader.next();
        span = Optional.of(BinParser.span(reader, reader.next()));
        if (!span.get().isTime()) {
          throw reader.error(name, "mstats span= is a time span such as 1m", "span=<n><unit>");
        }
      } else {
        throw reader.unexpected(reader.peek(), "where, by, span= or the end of mstats");
      }
    }
    if (groupBy.contains("_time")) {
      // tstats' way of saying it: with a span, the time buckets are there anyway
      if (span.isEmpty()) {
        throw reader.error(
            name, "mstats groups by time with span=, not by _time", "by <dimension>… span=<span>");
      }
      groupBy = groupBy.stream().filter(field -> !field.equals("_time")).toList();
    }
    if (append && !prestats) {
      throw reader.error(
          appendValue,
          "mstats append=true is valid only with prestats=true (as in Splunk): the points of"
              + " several mstats go together into one stats or timechart",
          "prestats=true append=true");
    }
    return new MstatsCommand(
        aggregations, where, groupBy, span, prestats, append, Optional.empty(), name.position());
  }

  private static MetricAggregation aggregation(TokenReader reader) {
    Token function = reader.expect(TokenType.WORD, "an mstats function such as avg");
    OptionalDouble percentile = AggregateFunction.percentile(function.text());
    MetricFunction parsed =
        (percentile.isPresent()
                ? Optional.of(MetricFunction.PERCENTILE)
                : MetricFunction.byName(function.text()))
            .orElseThrow(
                () ->
                    reader.error(
                        function,
                        "Unknown mstats function '" + function.text() + "'",
                        "one of " + MetricFunction.allNames() + " or perc<N>"));
    reader.expect(TokenType.LPAREN, "'(' and a metric name after " + function.text());
    Token metric =
        reader.expect(TokenType.WORD, "a metric name, a pattern such as cpu.*, or _value");
    reader.expect(TokenType.RPAREN, "')' after the metric name");
    Optional<String> as = Optional.empty();
    if (reader.peek().isWord("as")) {
      reader.next();
      Token alias = reader.readValue("a name after 'as'");
      if (metric.text().contains("*")) {
        throw reader.error(
            alias,
            "a wildcard metric gives one column per metric: it takes no AS name",
            "no AS after " + function.text() + "(" + metric.text() + ")");
      }
      as = Optional.of(alias.text());
    }
    String written =
        percentile.isPresent()
            ? function.text().toLowerCase(java.util.Locale.ROOT)
            : parsed.functionName();
    double percent =
        percentile.isPresent()
            ? percentile.getAsDouble()
            : parsed == MetricFunction.MEDIAN ? 50 : Double.NaN;
    return new MetricAggregation(parsed, written, metric.text(), percent, as);
  }

  private static Command mcatalog(TokenReader reader, Token name) {
    List<String> values = new ArrayList<>();
    List<String> names = new ArrayList<>();
    while (!reader.atCommandEnd() && !atWord(reader, "where", "by")) {
      Token function = reader.expect(TokenType.WORD, "values(<field>)");
      if (!function.isWord("values")) {
        throw reader.error(
            function,
            "mcatalog takes values(<field>) only",
            "values(metric_name) or values(<dimension>)");
      }
      reader.expect(TokenType.LPAREN, "'(' after values");
      String field = reader.expect(TokenType.WORD, "a field name").text();
      reader.expect(TokenType.RPAREN, "')' after the field name");
      String output = "values(" + field + ")";
      if (reader.peek().isWord("as")) {
        reader.next();
        output = reader.readValue("a name after 'as'").text();
      }
      values.add(field);
      names.add(output);
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (values.isEmpty()) {
      throw reader.unexpected(
          reader.peek(), "values(metric_name) or values(<dimension>) after mcatalog");
    }
    Optional<SearchExpression> where = Optional.empty();
    List<String> groupBy = new ArrayList<>();
    if (atWord(reader, "where")) {
      reader.next();
      if (reader.atCommandEnd()) {
        throw reader.unexpected(reader.peek(), "a search after where");
      }
      where = TstatsParser.searchClause(reader, true, false);
    }
    if (atWord(reader, "by")) {
      reader.next();
      groupBy = byFields(reader);
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "where, by or the end of mcatalog");
    }
    return new McatalogCommand(values, names, where, groupBy, name.position());
  }

  private static Command mpreview(TokenReader reader, Token name) {
    long target = MpreviewCommand.DEFAULT_TARGET;
    List<SearchExpression> parts = new ArrayList<>();
    while (atOption(reader, "target_per_timeseries", "filter")) {
      Arguments.Option option =
          Arguments.option(reader, "mpreview", Set.of("target_per_timeseries", "filter"));
      if (option.name().equals("target_per_timeseries")) {
        target = Arguments.count(reader, option.value(), "mpreview target_per_timeseries");
      } else {
        TokenReader filter = new TokenReader(option.value().text());
        new SearchExpressionParser(filter).parseCommandExpression().ifPresent(parts::add);
      }
    }
    if (!reader.atCommandEnd()) {
      TstatsParser.searchClause(reader, false, false).ifPresent(parts::add);
    }
    Optional<SearchExpression> where =
        switch (parts.size()) {
          case 0 -> Optional.empty();
          case 1 -> Optional.of(parts.get(0));
          default -> Optional.of(new SearchExpression.And(parts));
        };
    return new MpreviewCommand(where, target, name.position());
  }

  private static boolean atOption(TokenReader reader, String... names) {
    return Arguments.atOption(reader) && atWord(reader, names);
  }

  private static List<String> byFields(TokenReader reader) {
    List<String> fields = new ArrayList<>();
    while (!reader.atCommandEnd()
        && !(reader.peek().isWord("span") && reader.peek(1).type() == TokenType.EQ)) {
      fields.add(reader.expect(TokenType.WORD, "a field name to group by").text());
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (fields.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a field name after 'by'");
    }
    return fields;
  }

  private static boolean atWord(TokenReader reader, String... words) {
    for (String word : words) {
      if (reader.peek().isWord(word)) {
        return true;
      }
    }
    return false;
  }
}
