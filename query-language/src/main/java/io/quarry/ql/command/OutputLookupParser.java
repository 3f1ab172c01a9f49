package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.OutputLookupCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;

/** {@code outputlookup <table>}. */
final class OutputLookupParser implements CommandParser {
  @Override
  public Command parse(TokenReader reader, Token name) {
    Token table = Arguments.lookupTableName(reader, "the name of the lookup table to write");
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|' or the end of the query after the table name");
    }
    return new OutputLookupCommand(table.text(), name.position());
  }
}
