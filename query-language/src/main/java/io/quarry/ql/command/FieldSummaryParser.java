package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.FieldSummaryCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;

/** {@code fieldsummary [maxvals=N]}. */
final class FieldSummaryParser implements CommandParser {
  @Override
  public Command parse(TokenReader reader, Token name) {
    int maxValues = FieldSummaryCommand.DEFAULT_MAX_VALUES;
    if (reader.peek().isWord("maxvals") && reader.peek(1).type() == TokenType.EQ) {
      reader.next();
      reader.next();
      Token value = reader.expect(TokenType.WORD, "a number of values");
      try {
        maxValues = Integer.parseInt(value.text());
      } catch (NumberFormatException e) {
        maxValues = -1;
      }
      if (maxValues < 0) {
        throw reader.error(
            value,
            "maxvals needs a non-negative whole number, not '" + value.text() + "'",
            "a number");
      }
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|', maxvals=N or the end of the query");
    }
    return new FieldSummaryCommand(maxValues, name.position());
  }
}
