package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * {@code return [count] [alias=field …] [field …] [$field …]}: the first {@code count} rows (1 by
 * default) become one row whose {@code search} field is {@code field="value"} terms, rows joined by
 * {@code OR}.
 */
public record ReturnCommand(long count, List<Item> items, Position position) implements Command {
  public ReturnCommand {
    items = List.copyOf(items);
    requireNonNull(position, "position is null");
  }

  /**
   * One returned field.
   *
   * @param name the name written before {@code =} (the alias, or the field itself)
   * @param field the field whose value is returned
   * @param valueOnly {@code $field}: the value alone, unquoted
   */
  public record Item(String name, String field, boolean valueOnly) {
    public Item {
      requireNonNull(name, "name is null");
      requireNonNull(field, "field is null");
    }
  }

  @Override
  public String name() {
    return "return";
  }
}
