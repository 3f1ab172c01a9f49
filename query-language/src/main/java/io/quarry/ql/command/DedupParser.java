package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.SortKey;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code dedup [N] fields [keepempty=b] [consecutive=b] [sortby keys]}. */
final class DedupParser implements CommandParser {
  private static final Set<String> OPTIONS = Set.of("keepempty", "consecutive", "keepevents");

  @Override
  public Command parse(TokenReader reader, Token name) {
    long count = 1;
    if (Arguments.isCount(reader.peek())) {
      Token number = reader.next();
      count = Arguments.count(reader, number, "dedup");
      if (count == 0) {
        throw reader.error(
            number, "dedup keeps at least 1 result per combination", "a number >= 1");
      }
    }
    List<String> fields = new ArrayList<>();
    boolean keepEmpty = false;
    boolean consecutive = false;
    List<SortKey> sortBy = List.of();
    while (!reader.atCommandEnd()) {
      if (Arguments.atOption(reader)) {
        Arguments.Option option = Arguments.option(reader, "dedup", OPTIONS);
        boolean value = Arguments.bool(reader, option.value());
        switch (option.name()) {
          case "keepempty" -> keepEmpty = value;
          case "consecutive" -> consecutive = value;
          default ->
              throw reader.error(
                  option.nameToken(), "dedup keepevents is not supported yet", "another option");
        }
      } else if (reader.peek().isWord("sortby")) {
        reader.next();
        sortBy = Arguments.sortKeys(reader, Set.of());
        if (sortBy.isEmpty()) {
          throw reader.unexpected(reader.peek(), "a field after 'sortby'");
        }
      } else {
        fields.addAll(Arguments.fields(reader, Set.of("sortby")));
      }
    }
    if (fields.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a field for dedup");
    }
    return new DedupCommand(count, fields, keepEmpty, consecutive, sortBy, name.position());
  }
}
