package io.quarry.ql.command;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.parser.Token;
import io.quarry.ql.parser.TokenReader;
import java.util.List;
import java.util.Set;

/** {@code table f, …} and {@code fields [+|-] f, …}. */
final class ProjectParser implements CommandParser {
  private final boolean table;

  ProjectParser(boolean table) {
    this.table = table;
  }

  @Override
  public Command parse(TokenReader reader, Token name) {
    ProjectCommand.Kind kind = table ? ProjectCommand.Kind.TABLE : ProjectCommand.Kind.KEEP;
    if (!table && (reader.peek().isWord("-") || reader.peek().isWord("+"))) {
      kind = reader.next().text().equals("-") ? ProjectCommand.Kind.REMOVE : kind;
    }
    List<String> patterns = Arguments.fields(reader, Set.of());
    if (patterns.isEmpty()) {
      throw reader.unexpected(reader.peek(), "a field name for " + name.text());
    }
    if (!reader.atCommandEnd()) {
      throw reader.unexpected(reader.peek(), "a field name, '|' or the end of the query");
    }
    return new ProjectCommand(kind, patterns, name.position());
  }
}
