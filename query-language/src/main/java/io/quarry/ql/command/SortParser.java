package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.ast.SortKey;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.List;
import java.util.Set;

/** {@code sort [N] [limit=N] [-|+]key[, …] [desc]}; keys may be {@code num(f)}, {@code str(f)}. */
final class SortParser implements CommandParser {
  @Override
  public Command parse(TokenReader reader, Token name) {
    long limit = SortCommand.DEFAULT_LIMIT;
    if (Arguments.isCount(reader.peek())) {
      limit = Arguments.count(reader, reader.next(), "sort");
    }
    if (Arguments.atOption(reader)) {
      limit =
          Arguments.count(
              reader, Arguments.option(reader, "sort", Set.of("limit")).value(), "sort");
    }
    List<SortKey> keys = Arguments.sortKeys(reader, Set.of());
    if (keys.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a field to sort by");
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after the sort keys");
    }
    return new SortCommand(limit == 0 ? Long.MAX_VALUE : limit, keys, name.position());
  }
}
