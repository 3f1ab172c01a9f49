package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A row of given fields and raw text; terms are whitespace-separated words of the raw text. */
record TestRow(Map<String, List<Object>> fields, String raw) implements Row {

  static TestRow of(String raw, Object... keysAndValues) {
    Map<String, List<Object>> fields = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      Object value = keysAndValues[i + 1];
      fields.put(
          (String) keysAndValues[i],
          value instanceof List<?> list ? new ArrayList<>(list) : List.of(value));
    }
    return new TestRow(fields, raw);
  }

  @Override
  public List<Object> values(String field) {
    return fields.getOrDefault(field, List.of());
  }

  @Override
  public List<String> fieldNames() {
    return new ArrayList<>(fields.keySet());
  }

  @Override
  public boolean matchesTerm(SearchTerm term) {
    String lower = raw.toLowerCase(Locale.ROOT);
    if (term.phrase()) {
      return lower.contains(term.lowerCase());
    }
    Wildcard pattern = term.pattern() != null ? term.pattern() : new Wildcard(term.text());
    for (String word : lower.split("\\s+")) {
      if (pattern.matches(word)) {
        return true;
      }
    }
    return false;
  }
}
