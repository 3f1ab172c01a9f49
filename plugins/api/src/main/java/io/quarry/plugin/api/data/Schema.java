package io.quarry.plugin.api.data;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The names and types of a page's columns, in order. Column names are unique. */
public record Schema(List<Column> columns) {

  /** One named, typed column. */
  public record Column(String name, DataType type) {
    public Column {
      requireNonNull(name, "name is null");
      requireNonNull(type, "type is null");
    }
  }

  public Schema {
    columns = List.copyOf(requireNonNull(columns, "columns is null"));
    Set<String> seen = new HashSet<>();
    for (Column column : columns) {
      if (!seen.add(column.name())) {
        throw new IllegalArgumentException("duplicate column name: " + column.name());
      }
    }
  }

  public int size() {
    return columns.size();
  }

  public Column column(int index) {
    return columns.get(index);
  }

  /** The position of a column, or -1. */
  public int indexOf(String name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
