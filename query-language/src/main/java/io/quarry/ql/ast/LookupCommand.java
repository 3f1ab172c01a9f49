package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code lookup <table> <key> [AS <field>][, …] [OUTPUT|OUTPUTNEW <column> [AS <field>][, …]]}:
 * enriches each row with the columns of the lookup table's rows whose key columns equal the row's
 * fields. Without an output list every non-key column is output; {@code OUTPUTNEW} only sets fields
 * the row does not have.
 */
public record LookupCommand(
    String table,
    List<FieldMapping> keys,
    List<FieldMapping> outputs,
    boolean outputNew,
    Position position)
    implements Command {

  /** A column of the table and the row field it corresponds to. */
  public record FieldMapping(String column, String field) {
    public FieldMapping {
      requireNonNull(column, "column is null");
      requireNonNull(field, "field is null");
    }
  }

  public LookupCommand {
    requireNonNull(table, "table is null");
    keys = List.copyOf(keys);
    outputs = List.copyOf(outputs);
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("lookup needs at least one key field");
    }
    requireNonNull(position, "position is null");
  }

  @Override
  public String name() {
    return "lookup";
  }
}
