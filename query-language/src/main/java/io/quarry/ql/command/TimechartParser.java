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

/** {@code timechart [span=S] [bins=N] [limit=N] [useother=b] [usenull=b] agg, … [by field]}. */
final class TimechartParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of("span", "bins", "limit", "useother", "usenull", "otherstr", "nullstr");

  @Override
  public Command parse(TokenReader reader, Token name) {
    Optional<Span> span = Optional.empty();
    int bins = 100;
    long limit = 10;
    boolean useOther = true;
    boolean useNull = true;
    String otherStr = io.quarry.ql.ast.TimechartCommand.OTHER;
    String nullStr = io.quarry.ql.ast.TimechartCommand.NULL;
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
        case "limit" -> limit = Arguments.count(reader, option.value(), "timechart limit");
        case "useother" -> useOther = Arguments.bool(reader, option.value());
        case "otherstr" -> otherStr = option.value().text();
        case "nullstr" -> nullStr = option.value().text();
        default -> useNull = Arguments.bool(reader, option.value());
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
    Optional<String> by = Optional.empty();
    if (reader.peek().isWord("by")) {
      reader.next();
      by = Optional.of(reader.readValue("a field after 'by'").text());
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(
          reader.peek(), "'|' or the end of the query (timechart splits by one field)");
    }
    return new TimechartCommand(
        span,
        bins,
        limit == 0 ? Long.MAX_VALUE : limit,
        useOther,
        useNull,
        aggregations,
        by,
        otherStr,
        nullStr,
        name.position());
  }
}
