package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ReturnCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;

/** {@code return [count] [alias=field …] [field …] [$field …]}. */
final class ReturnParser implements CommandParser {
  @Override
  public Command parse(TokenReader reader, Token name) {
    long count = 1;
    if (Arguments.isCount(reader.peek())) {
      Token token = reader.next();
      count = Arguments.count(reader, token, "return");
      if (count < 1) {
        throw reader.error(token, "return's count must be at least 1", "a count of 1 or more");
      }
    }
    List<ReturnCommand.Item> items = new ArrayList<>();
    while (!reader.atCommandEnd()) {
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      Token first = reader.peek();
      if (first.type() == TokenType.WORD
          && reader.peek(1).type() == TokenType.EQ
          && reader.peek(1).position().offset() == first.end()) {
        reader.next();
        reader.next();
        Token field = reader.readValue("the field after '" + first.text() + "='");
        items.add(new ReturnCommand.Item(first.text(), field.text(), false));
        continue;
      }
      Token field = reader.readValue("a field, alias=field or $field");
      String text = field.text();
      if (text.startsWith("$")) {
        if (text.length() == 1) {
          throw reader.error(field, "'$' needs a field name after it", "$<field>");
        }
        items.add(new ReturnCommand.Item(text.substring(1), text.substring(1), true));
      } else {
        items.add(new ReturnCommand.Item(text, text, false));
      }
    }
    if (items.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a field to return (field, alias=field or $field)");
    }
    return new ReturnCommand(count, items, name.position());
  }
}
