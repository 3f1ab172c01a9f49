package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;

/**
 * {@code outputlookup <table>}: writes the rows that reach it to a lookup table (replacing it), and
 * passes them on unchanged. Columns are the rows' fields in order of first appearance.
 */
public record OutputLookupCommand(String table, Position position) implements Command {
  public OutputLookupCommand {
    requireNonNull(table, "table is null");
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "outputlookup";
  }
}
