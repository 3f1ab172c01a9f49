package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;

/** {@code rename from AS to[, …]}; {@code *} in both names carries the matched text over. */
final class RenameParser implements CommandParser {
  @Override
  public Command parse(TokenReader reader, Token name) {
    List<RenameCommand.Rename> renames = new ArrayList<>();
    while (!reader.atCommandEnd()) {
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      Token from = reader.readValue("a field to rename");
      if (!reader.peek().isWord("as")) {
        throw reader.unexpected(reader.peek(), "'AS' and the new name after '" + from.text() + "'");
      }
      reader.next();
      Token to = reader.readValue("the new name");
      long fromStars = from.text().chars().filter(c -> c == '*').count();
      long toStars = to.text().chars().filter(c -> c == '*').count();
      if (fromStars > 1 || toStars != fromStars && toStars != 0) {
        throw reader.error(
            to,
            "rename wildcards must pair up: '" + from.text() + "' AS '" + to.text() + "'",
            "one '*' on both sides, or none on the new name");
      }
      renames.add(new RenameCommand.Rename(from.text(), to.text()));
    }
    if (renames.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a field to rename");
    }
    return new RenameCommand(renames, name.position());
  }
}
