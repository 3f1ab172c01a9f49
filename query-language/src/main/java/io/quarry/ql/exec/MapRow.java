package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A row of named values, as aggregations produce: a value is single or a {@code List} (a
 * multivalue). Null values mean the field is absent.
 */
public final class MapRow implements Row {
  private final Map<String, Object> values;

  public MapRow(Map<String, Object> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  @Override
  public List<Object> values(String field) {
    Object value = values.get(field);
    if (value instanceof List<?> multivalue) {
      return List.copyOf(multivalue);
    }
    return value == null ? List.of() : List.of(value);
  }

  @Override
  public List<String> fieldNames() {
    return new ArrayList<>(values.keySet());
  }

  @Override
  public boolean matchesTerm(SearchTerm term) {
    return false;
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
