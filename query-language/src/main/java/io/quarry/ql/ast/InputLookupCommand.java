package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code | inputlookup <table>}: a generating command — the rows of a lookup table instead of
 * events, one row per table row with a field per column.
 */
public record InputLookupCommand(String table, Position position) implements Command {
  public InputLookupCommand {
    requireNonNull(table, "table is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "inputlookup";
  }
}
