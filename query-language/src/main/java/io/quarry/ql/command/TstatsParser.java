package io.quarry.ql.command;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TstatsCommand;
import io.quarry.ql.parser.SearchExpressionParser;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code | tstats [option=value …] <aggregation>[, …] [where <search>] [by <field>[, …]
 * [span=<span>]]}. The options Splunk gives for accelerated data models are accepted where they
 * change nothing here ({@code summariesonly}, {@code allow_old_summaries}, {@code chunk_size},
 * {@code local}); {@code prestats=true}, {@code append=true} and {@code from datamodel=…} are
 * errors (no data models, no prestats output).
 */
final class TstatsParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of(
          "summariesonly",
          "allow_old_summaries",
          "chunk_size",
          "local",
          "prestats",
          "append",
          "fillnull_value",
          "include_reduced_buckets");

  @Override
  public Command parse(TokenReader reader, Token name) {
    while (Arguments.atOption(reader)) {
      Arguments.Option option = Arguments.option(reader, "tstats", OPTIONS);
      switch (option.name()) {
        case "prestats", "append" -> {
          if (Arguments.bool(reader, option.value())) {
            throw reader.error(
                option.value(),
                "tstats " + option.name() + "=true is not supported",
                option.name() + "=false");
          }
        }
        case "fillnull_value" ->
            throw reader.error(
                option.value(), "tstats fillnull_value is not supported", "another option");
        default -> option.value(); // no data models: nothing to choose between
      }
    }
    List<Aggregation> aggregations = new ArrayList<>();
    while (!reader.atCommandEnd() && !atWord(reader, "where", "by", "from")) {
      Token at = reader.peek();
      Aggregation aggregation = StatsParser.aggregation(reader);
      if (aggregation.evaluated().isPresent()) {
        throw reader.error(
            at, "tstats reads only indexed fields: eval( ) is not allowed", "a field name");
      }
      StatsParser.perSpanOnlyInTimechart(reader, at, List.of(aggregation), "tstats");
      StatsParser.noWildcards(reader, at, List.of(aggregation), "tstats");
      aggregations.add(aggregation);
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (aggregations.isEmpty()) {
      throw reader.unexpected(
          reader.peek(), "an aggregation such as count, dc(host) or max(_time) after tstats");
    }
    if (atWord(reader, "from")) {
      throw reader.error(
          reader.peek(),
          "tstats from datamodel is not supported: Quarry has no data models",
          "where and by over indexed fields");
    }
    Optional<SearchExpression> where = Optional.empty();
    if (atWord(reader, "where")) {
      Token keyword = reader.next();
      where = whereClause(reader, keyword);
    }
    List<String> groupBy = new ArrayList<>();
    Optional<Span> span = Optional.empty();
    if (atWord(reader, "by")) {
      reader.next();
      while (!reader.atCommandEnd()) {
        if (reader.peek().isWord("span") && reader.peek(1).type() == TokenType.EQ) {
          reader.next();
          reader.next();
          span = Optional.of(BinParser.span(reader, reader.next()));
          continue;
        }
        groupBy.add(reader.expect(TokenType.WORD, "a field name to group by").text());
        if (reader.at(TokenType.COMMA)) {
          reader.next();
        }
      }
      if (groupBy.isEmpty()) {
        throw reader.unexpected(reader.peek(), "a field name after 'by'");
      }
    }
    if (span.isPresent() && !groupBy.contains("_time")) {
      throw reader.error(name, "tstats span= needs _time among the by-fields", "by _time span=…");
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "where, by or the end of tstats");
    }
    return new TstatsCommand(
        where, new StatsCommand(aggregations, groupBy, name.position()), span, name.position());
  }

  /**
   * The search after {@code where}, up to a {@code by} outside parentheses: parsed by the search
   * command's parser over just those tokens (positions stay the query's).
   */
  private static Optional<SearchExpression> whereClause(TokenReader reader, Token keyword) {
    return searchClause(reader, true, false);
  }

  /**
   * The search from here up to the end of the command, or (outside parentheses) a {@code by} when
   * {@code stopAtBy}, or a {@code span=} when {@code stopAtSpan} (mstats and mcatalog share it).
   */
  static Optional<SearchExpression> searchClause(
      TokenReader reader, boolean stopAtBy, boolean stopAtSpan) {
    int depth = 0;
    int ahead = 0;
    while (true) {
      Token token = reader.peek(ahead);
      if (token.type() == TokenType.PIPE || token.type() == TokenType.EOF) {
        break;
      }
      if (token.type() == TokenType.LPAREN) {
        depth++;
      } else if (token.type() == TokenType.RPAREN) {
        depth--;
      } else if (depth == 0 && stopAtBy && token.isWord("by")) {
        break;
      } else if (depth == 0
          && stopAtSpan
          && token.isWord("span")
          && reader.peek(ahead + 1).type() == TokenType.EQ) {
        break;
      }
      ahead++;
    }
    if (ahead == 0) {
      throw reader.unexpected(reader.peek(), "a search after where");
    }
    Token last = reader.peek(ahead - 1);
    String query = reader.query();
    // the clause alone, everything else blanked: the search parser reads it to its end
    StringBuilder text = new StringBuilder(" ".repeat(query.length()));
    int from = reader.peek().position().offset();
    text.replace(from, last.end(), query.substring(from, last.end()));
    TokenReader clause = new TokenReader(text.toString());
    Optional<SearchExpression> where = new SearchExpressionParser(clause).parseCommandExpression();
    for (int i = 0; i < ahead; i++) {
      reader.next();
    }
    return where;
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
