package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * A row with one field's values replaced: what {@code mvmap}'s expression sees for each value of
 * its field, every other field as the row has it.
 */
final class FieldOverlayRow implements Row {
  private final Row row;
  private final String field;
  private final Object value;

  FieldOverlayRow(Row row, String field, Object value) {
    this.row = row;
    this.field = field;
    this.value = value;
  }

  @Override
  public List<Object> values(String name) {
    return name.equals(field) ? List.of(value) : row.values(name);
  }

  @Override
  public List<String> fieldNames() {
    List<String> names = new ArrayList<>(row.fieldNames());
    if (!names.contains(field)) {
      names.add(field);
    }
    return names;
  }

  @Override
  public boolean matchesTerm(SearchTerm term) {
    return row.matchesTerm(term);
  }
}
