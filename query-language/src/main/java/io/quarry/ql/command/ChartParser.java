package io.quarry.ql.command;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code chart [limit|useother|usenull|otherstr|nullstr=…] agg, … over X [by Y]} or {@code chart
 * [options] agg, … by X[, Y]}.
 */
final class ChartParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of("limit", "useother", "usenull", "otherstr", "nullstr");

  @Override
  public Command parse(TokenReader reader, Token name) {
    long limit = 10;
    boolean useOther = true;
    boolean useNull = true;
    String otherStr = io.quarry.ql.ast.TimechartCommand.OTHER;
    String nullStr = io.quarry.ql.ast.TimechartCommand.NULL;
    while (Arguments.atOption(reader)) {
      Arguments.Option option = Arguments.option(reader, "chart", OPTIONS);
      switch (option.name()) {
        case "limit" -> limit = Arguments.count(reader, option.value(), "chart limit");
        case "useother" -> useOther = Arguments.bool(reader, option.value());
        case "otherstr" -> otherStr = option.value().text();
        case "nullstr" -> nullStr = option.value().text();
        default -> useNull = Arguments.bool(reader, option.value());
      }
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
    String over;
    Optional<String> by = Optional.empty();
    if (reader.peek().isWord("over")) {
      reader.next();
      over = reader.readValue("a field after 'over'").text();
      if (reader.peek().isWord("by")) {
        reader.next();
        by = Optional.of(reader.readValue("a field after 'by'").text());
      }
    } else if (reader.peek().isWord("by")) {
      reader.next();
      List<String> fields = Arguments.fields(reader, Set.of());
      if (fields.isEmpty() || fields.size() > 2) {
        throw reader.error(name, "chart … by takes one or two fields", "by X or by X, Y");
      }
      over = fields.get(0);
      by = fields.size() == 2 ? Optional.of(fields.get(1)) : Optional.empty();
    } else {
      throw reader.unexpected(reader.peek(), "'over' or 'by' and the field to chart over");
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query");
    }
    return new ChartCommand(
        aggregations,
        over,
        by,
        limit == 0 ? Long.MAX_VALUE : limit,
        useOther,
        useNull,
        otherStr,
        nullStr,
        name.position());
  }
}
