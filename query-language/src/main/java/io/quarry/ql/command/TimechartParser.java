package io.quarry.ql.command;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code timechart [span=S] [bins=N] [options] agg, … [by field [series options] [where …]]}; the
 * options other than span and bins are {@link ChartSyntax}'s.
 */
final class TimechartParser implements CommandParser {
  private static final Set<String> OPTIONS = options();

  private static Set<String> options() {
    Set<String> options = new java.util.HashSet<>(ChartSyntax.LEADING_OPTIONS);
    options.add("span");
    options.add("bins");
    return Set.copyOf(options);
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    Optional<Span> span = Optional.empty();
    int bins = 100;
    ChartSyntax syntax = new ChartSyntax("timechart");
    while (Arguments.atOption(reader)) {
      Arguments.Option option = Arguments.option(reader, "timechart", OPTIONS);
      switch (option.name()) {
        case "span" -> {
          Span parsed = BinParser.span(reader, option.value());
          if (!parsed.isTime()) {
            throw reader.error(
                option.value(), "timechart spans are times", "a span such as 5m or 1h");
          }
          span = Optional.of(parsed);
        }
        case "bins" ->
            bins =
                (int)
                    Math.max(
                        1,
                        Math.min(
                            10_000, Arguments.count(reader, option.value(), "timechart bins")));
        default -> syntax.apply(reader, option);
      }
    }
    List<Aggregation> aggregations = new ArrayList<>();
    while (!reader.atCommandEnd() && !reader.peek().isWord("by")) {
      aggregations.add(StatsParser.aggregation(reader));
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (aggregations.isEmpty()) {
      throw reader.unexpected(reader.peek(), "an aggregation such as count after timechart");
    }
    StatsParser.noWildcards(reader, name, aggregations, "timechart");
    Optional<String> by = Optional.empty();
    if (reader.peek().isWord("by")) {
      reader.next();
      by = Optional.of(reader.readValue("a field after 'by'").text());
      syntax.readSplitOptions(reader);
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(
          reader.peek(), "'|' or the end of the query (timechart splits by one field)");
    }
    return new TimechartCommand(
        span,
        bins,
        syntax.limit,
        syntax.useOther,
        syntax.useNull,
        aggregations,
        by,
        syntax.otherStr,
        syntax.nullStr,
        syntax.layout(),
        name.position());
  }
}
