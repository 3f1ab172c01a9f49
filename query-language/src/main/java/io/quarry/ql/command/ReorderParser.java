package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ReorderCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.Set;

/** {@code tail [N]} and {@code reverse}. */
final class ReorderParser implements CommandParser {
  private final boolean tail;

  ReorderParser(boolean tail) {
    this.tail = tail;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    long limit = tail ? ReorderCommand.DEFAULT_TAIL : 0;
    if (tail && Arguments.atOption(reader)) {
      limit =
          Arguments.count(
              reader, Arguments.option(reader, "tail", Set.of("limit")).value(), "tail");
    } else if (tail && !reader.atCommandEnd()) {
      limit = Arguments.count(reader, reader.next(), "tail");
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after " + name.text());
    }
    return new ReorderCommand(tail, limit, name.position());
  }
}
