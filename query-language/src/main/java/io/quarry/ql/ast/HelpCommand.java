package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;
import java.util.Map;

/**
 * {@code | help [command]}: a generating command — what the registry knows about one command (a row
 * per declared argument) or a row per command. The rows are resolved when the query is parsed.
 */
public record HelpCommand(List<Map<String, Object>> rows, Position position) implements Command {
  public HelpCommand {
    rows = List.copyOf(requireNonNull(rows, "rows is null"));
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "help";
  }
}
