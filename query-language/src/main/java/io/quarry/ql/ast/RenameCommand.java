package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/** {@code rename a AS b, c* AS d*}: renames fields; a {@code *} carries over what it matched. */
public record RenameCommand(List<Rename> renames, Position position) implements Command {
  /** One {@code from AS to} pair. */
  public record Rename(String from, String to) {
    public Rename {
      requireNonNull(from, "from is null");
      requireNonNull(to, "to is null");
    }
  }

  public RenameCommand {
    renames = List.copyOf(renames);
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "rename";
  }
}
