package io.quarry.ql.exec;

import java.util.List;

/**
 * A row of one field holding one value: what {@code mvfilter}'s condition sees for each value of
 * the one field it reads. It has no raw text, so it holds no search term.
 */
final class SingleValueRow implements Row {
  private final String field;
  private final Object value;

  SingleValueRow(String field, Object value) {
    this.field = field;
    this.value = value;
  }

  @Override
  public List<Object> values(String name) {
    return name.equals(field) && value != null ? List.of(value) : List.of();
  }

  @Override
  public List<String> fieldNames() {
    return List.of(field);
  }

  @Override
  public boolean matchesTerm(SearchTerm term) {
    return false;
  }
}
