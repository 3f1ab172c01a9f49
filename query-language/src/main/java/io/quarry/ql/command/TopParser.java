package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.List;
import java.util.Set;

/**
 * {@code top|rare [N] [limit=N] [countfield=f] [percentfield=f] [showcount=b] [showperc=b] fields
 * [by fields]}.
 */
final class TopParser implements CommandParser {
  private static final Set<String> OPTIONS =
      Set.of("limit", "countfield", "percentfield", "showcount", "showperc");

  private final boolean rare;

  TopParser(boolean rare) {
    this.rare = rare;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    String command = rare ? "rare" : "top";
    long limit = TopCommand.DEFAULT_LIMIT;
    String countField = "count";
    String percentField = "percent";
    boolean showCount = true;
    boolean showPercent = true;
    if (Arguments.isCount(reader.peek())) {
      limit = Arguments.count(reader, reader.next(), command);
    }
    List<String> fields = List.of();
    List<String> by = List.of();
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, command, OPTIONS);
        switch (option.name()) {
          case "limit" -> limit = Arguments.count(reader, option.value(), command);
          case "countfield" -> countField = option.value().text();
          case "percentfield" -> percentField = option.value().text();
          case "showcount" -> showCount = Arguments.bool(reader, option.value());
          default -> showPercent = Arguments.bool(reader, option.value());
        }
      } else if (reader.peek().isWord("by")) {
        reader.next();
        by = Arguments.fields(reader, Set.of());
        if (by.isEmpty()) {
          throw reader.unexpected(reader.peek(), "a field name after 'by'");
        }
      } else if (fields.isEmpty()) {
        fields = Arguments.fields(reader, Set.of("by"));
      } else {
        throw reader.unexpected(reader.peek(), "'by', an option, '|' or the end of the query");
      }
    }
    if (fields.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a field for " + command);
    }
    return new TopCommand(
        rare,
        limit == 0 ? Long.MAX_VALUE : limit,
        fields,
        by,
        countField,
        percentField,
        showCount,
        showPercent,
        name.position());
  }
}
