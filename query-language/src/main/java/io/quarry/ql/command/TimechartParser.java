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
 * {@code timechart [span=S] [bins=N] [options] agg, … [options] [by field [series options] [where
 * …]]}; the options other than span and bins are {@link ChartSyntax}'s. As Splunk, the options may
 * also follow the aggregations ({@code timechart count span=1h}).
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
    Options options = new Options(new ChartSyntax("timechart"));
    options.read(reader);
    List<Aggregation> aggregations = new ArrayList<>();
    while (!reader.atCommandEnd() && !reader.peek().isWord("by") && !Arguments.atOption(reader)) {
      aggregations.add(StatsParser.aggregation(reader));
      if (reader.at(TokenType.COMMA)) {
        reader.next();
      }
    }
    if (aggregations.isEmpty()) {
      throw reader.unexpected(reader.peek(), "an aggregation such as count after timechart");
    }
    StatsParser.noWildcards(reader, name, aggregations, "timechart");
    options.read(reader); // timechart count span=1h: Splunk takes the options after them too
    ChartSyntax syntax = options.syntax;
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
        options.span,
        options.bins,
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

  /** The options before the split field: span, bins and {@link ChartSyntax}'s leading ones. */
  private static final class Options {
    final ChartSyntax syntax;
    Optional<Span> span = Optional.empty();
    int bins = 100;

    Options(ChartSyntax syntax) {
      this.syntax = syntax;
    }

    void read(TokenReader reader) {
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
    }
  }
}
