package io.quarry.ql.command;

import io.quarry.ql.ast.BinCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Span;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.Set;

/** {@code bin|bucket span=S field [AS new]}. */
final class BinParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of("span", "bins", "minspan", "start", "end", "aligntime");

  @Override
  public Command parse(TokenReader reader, Token name) {
    Span span = null;
    String field = null;
    String as = null;
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, "bin", OPTIONS);
        if (!option.name().equals("span")) {
          throw reader.error(
              option.nameToken(),
              "bin " + option.name() + "= is not supported yet; give span=",
              "span=");
        }
        span = span(reader, option.value());
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
    if (span == null) {
      throw reader.error(name, "bin needs span=, e.g. span=1h or span=100", "span=");
    }
    return new BinCommand(field, span, as == null ? field : as, name.position());
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
