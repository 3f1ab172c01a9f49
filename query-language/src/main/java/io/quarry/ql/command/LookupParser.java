package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.LookupCommand.FieldMapping;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import io.quarry.ql.parser.TokenType;
import java.util.ArrayList;
import java.util.List;

/** {@code lookup table key [AS field][, …] [OUTPUT|OUTPUTNEW column [AS field][, …]]}. */
final class LookupParser implements CommandParser {
  @Override
  public Command parse(TokenReader reader, Token name) {
    Token table = Arguments.lookupTableName(reader, "the name of a lookup table");
    List<FieldMapping> keys = mappings(reader, true);
    if (keys.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a key field after the lookup table's name");
    }
    boolean outputNew = false;
    List<FieldMapping> outputs = List.of();
    if (reader.peek().isWord("output") || reader.peek().isWord("outputnew")) {
      outputNew = reader.next().isWord("outputnew");
      outputs = mappings(reader, false);
      if (outputs.isEmpty()) {
        throw reader.unexpected(reader.peek(), "a column to output");
      }
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "'|', OUTPUT, OUTPUTNEW or the end of the query");
    }
    return new LookupCommand(table.text(), keys, outputs, outputNew, name.position());
  }

  /** {@code column [AS field]} pairs up to OUTPUT/OUTPUTNEW (for keys) or the command's end. */
  private static List<FieldMapping> mappings(TokenReader reader, boolean keys) {
    List<FieldMapping> mappings = new ArrayList<>();
    while (!reader.atCommandEnd()) {
      if (reader.at(TokenType.COMMA)) {
        reader.next();
        continue;
      }
      if (keys && (reader.peek().isWord("output") || reader.peek().isWord("outputnew"))) {
        break;
      }
      Token column = reader.readValue(keys ? "a key field" : "a column to output");
      String field = column.text();
      if (reader.peek().isWord("as")) {
        reader.next();
        field = reader.readValue("the field name after AS").text();
      }
      mappings.add(new FieldMapping(column.text(), field));
    }
    return mappings;
  }
}
