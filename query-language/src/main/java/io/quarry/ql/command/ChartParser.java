package io.quarry.ql.command;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Span;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code chart [options] agg, … over X [span=S|bins=N] [by Y [series options] [where …]]} or {@code
 * chart [options] agg, … by X [span=S|bins=N] [,] [Y [series options] [where …]]}; the options are
 * {@link ChartSyntax}'s.
 */
final class ChartParser implements CommandParser {
  private static final Set<String> BIN_OPTIONS = Set.of("span", "bins");

  @Override
  public Command parse(TokenReader reader, Token name) {
    ChartSyntax syntax = new ChartSyntax("chart");
    while (Arguments.atOption(reader)) {
      syntax.apply(reader, Arguments.option(reader, "chart", ChartSyntax.LEADING_OPTIONS));
    }
    List<Aggregation> aggregations = new ArrayList<>();
    while (!reader.atCommandEnd() && !reader.peek().isWord("by") && !reader.peek().isWord("over")) {
      aggregations.add(StatsParser.aggregation(reader));
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (aggregations.isEmpty()) {
      throw reader.unexpected(reader.peek(), "an aggregation such as count after chart");
    }
    StatsParser.perSpanOnlyInTimechart(reader, name, aggregations, "chart");
    StatsParser.noWildcards(reader, name, aggregations, "chart");
    String over;
    Optional<String> by = Optional.empty();
    Bins bins = new Bins();
    if (reader.peek().isWord("over")) {
      reader.next();
      over = reader.readValue("a field after 'over'").text();
      bins.read(reader);
      if (reader.peek().isWord("by")) {
        reader.next();
        by = Optional.of(reader.readValue("a field after 'by'").text());
        syntax.readSplitOptions(reader);
      }
    } else if (reader.peek().isWord("by")) {
      reader.next();
      over = reader.readValue("a field after 'by'").text();
      bins.read(reader);
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
      if (!reader.atCommandEnd() && !Arguments.atOption(reader) && !reader.peek().isWord("where")) {
        by = Optional.of(reader.readValue("the field to split the columns by").text());
      }
      syntax.readSplitOptions(reader);
    } else {
      throw reader.unexpected(reader.peek(), "'over' or 'by' and the field to chart over");
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(
          reader.peek(),
          by.isEmpty() && !reader.at(TokenType.WORD)
              ? "'|' or the end of the query"
              : "'|' or the end of the query (chart … by takes one or two fields)");
    }
    return new ChartCommand(
        aggregations,
        over,
        by,
        syntax.limit,
        syntax.useOther,
        syntax.useNull,
        syntax.otherStr,
        syntax.nullStr,
        bins.span,
        bins.count,
        syntax.layout(),
        name.position());
  }

  /** {@code span=}/{@code bins=} after the over-field. */
  private static final class Bins {
    Optional<Span> span = Optional.empty();
    int count;

    void read(TokenReader reader) {
      while (Arguments.atOption(reader)) {
        Arguments.Option option =
            Arguments.option(reader, "chart (after the over field)", BIN_OPTIONS);
        if (option.name().equals("span")) {
          span = Optional.of(BinParser.span(reader, option.value()));
        } else {
          long n = Arguments.count(reader, option.value(), "chart bins");
          if (n < 1) {
            throw reader.error(option.value(), "chart bins= must be at least 1", "bins=10");
          }
          count = (int) Math.min(50_000, n);
        }
      }
    }
  }
}
