package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A row with some fields set by a command ({@code eval}, {@code rex}): a set value (single, or a
 * {@code List} for a multivalue) hides the row's own; a null removes the field.
 */
record AssignedRow(Row row, Map<String, Object> values) implements Row {
  @Override
  public List<Object> values(String field) {
    Object value = values.get(field);
    if (value != null) {
      return value instanceof List<?> list ? List.copyOf(list) : List.of(value);
    }
    return values.containsKey(field) ? List.of() : row.values(field);
  }

  @Override
  public CharSequence text(String field) {
    if (!values.containsKey(field)) {
      return row.text(field);
    }
    return values.get(field) instanceof String text ? text : null; // rex's value, for stats by it
  }

  @Override
  public List<String> fieldNames() {
    return withAssigned(row.fieldNames());
  }

  @Override
  public List<String> discoverableFieldNames() {
    return withAssigned(row.discoverableFieldNames());
  }

  private List<String> withAssigned(List<String> underlying) {
    List<String> names = new ArrayList<>(underlying);
    for (Map.Entry<String, Object> entry : values.entrySet()) {
      if (entry.getValue() == null) {
        names.remove(entry.getKey());
      } else if (!names.contains(entry.getKey())) {
        names.add(entry.getKey());
      }
    }
    return names;
  }

  @Override
  public boolean matchesTerm(SearchTerm term) {
    return row.matchesTerm(term);
  }
}
