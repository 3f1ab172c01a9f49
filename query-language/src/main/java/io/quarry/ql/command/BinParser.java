package io.quarry.ql.command;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Span;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * {@code bin|bucket [span=S] [bins=N] [minspan=S] [start=n] [end=n] field [AS new]}; a span wins
 * over the options that choose one (as in Splunk). {@code aligntime} is not supported yet.
 */
final class BinParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of("span", "bins", "minspan", "start", "end", "aligntime");

  @Override
  public Command parse(TokenReader reader, Token name) {
    Optional<Span> span = Optional.empty();
    Optional<Span> minspan = Optional.empty();
    OptionalDouble start = OptionalDouble.empty();
    OptionalDouble end = OptionalDouble.empty();
    int bins = BinCommand.DEFAULT_BINS;
    String field = null;
    String as = null;
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, "bin", OPTIONS);
        switch (option.name()) {
          case "span" -> span = Optional.of(span(reader, option.value()));
          case "minspan" -> minspan = Optional.of(span(reader, option.value()));
          case "bins" -> {
            long count = Arguments.count(reader, option.value(), "bin bins");
            if (count < 1) {
              throw reader.error(option.value(), "bin bins= must be at least 1", "bins=10");
            }
            bins = (int) Math.min(50_000, count);
          }
          case "start" -> start = OptionalDouble.of(number(reader, option.value()));
          case "end" -> end = OptionalDouble.of(number(reader, option.value()));
          default ->
              throw reader.error(
                  option.nameToken(),
                  "bin aligntime= is not supported yet (bins align to the epoch in the search's"
                      + " time zone)",
                  "span=, bins=, minspan=, start= or end=");
        }
      } else if (field == null) {
        field = reader.readValue("the field to bin").text();
      } else if (reader.peek().isWord("as") && as == null) {
        reader.next();
        as = reader.readValue("the new field name").text();
      } else {
        throw reader.unexpected(reader.peek(), "AS, an option, '|' or the end of the query");
      }
    }
    if (field == null) {
      throw reader.unexpected(reader.peek(), "the field to bin, e.g. _time");
    }
    return new BinCommand(
        field, span, bins, minspan, start, end, as == null ? field : as, name.position());
  }

  private static double number(TokenReader reader, Token value) {
    try {
      double number = Double.parseDouble(value.text());
      if (Double.isFinite(number)) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw reader.error(
        value, "'" + value.text() + "' is not a number", "a number such as 0 or 1000");
  }

  static Span span(TokenReader reader, Token value) {
    return Span.parse(value.text())
        .orElseThrow(
            () ->
                reader.error(
                    value,
                    "'" + value.text() + "' is not a span",
                    "a span such as 30s, 5m, 1h, 1d, 1w, 1mon or a number"));
  }
}
