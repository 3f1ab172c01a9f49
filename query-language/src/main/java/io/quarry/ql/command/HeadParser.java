package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;

/** {@code head [N]} or {@code head limit=N}; N defaults to 10. */
final class HeadParser implements CommandParser {
  static final long DEFAULT_LIMIT = 10;

  @Override
  public Command parse(TokenReader reader, Token name) {
    long limit = DEFAULT_LIMIT;
    if (reader.peek().isWord("limit") && reader.peek(1).type() == TokenType.EQ) {
      reader.next();
      reader.next();
    }
    if (!reader.atCommandEnd()) {
      Token count = reader.expect(TokenType.WORD, "a number of results");
      limit = parseCount(reader, count);
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after head's count");
    }
    return new HeadCommand(limit, name.position());
  }

  private static long parseCount(TokenReader reader, Token count) {
    try {
      long value = Long.parseLong(count.text());
      if (value >= 0) {
        return value;
      }
    } catch (NumberFormatException ignored) {
      // reported below
    }
    throw reader.error(
        count, "head needs a non-negative whole number, not '" + count.text() + "'", "a number");
  }
}
