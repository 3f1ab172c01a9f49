package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The build side of {@code join} on pages ({@link HashJoinOperator}): the subsearch's rows by the
 * text of their join fields' first values — as {@link JoinOperator} keys them, {@code _time} as
 * epoch seconds — each key's rows in the subsearch's order; a row missing a join field is in no
 * entry. Built once per set of join fields, read by the probe side position by position.
 */
final class JoinHashTable {
  private static final int[] NONE = new int[0];

  private final Map<String, int[]> rows = new HashMap<>();
  private final List<String> fields;

  JoinHashTable(SubsearchRows subsearch, List<String> fields) {
    this.fields = List.copyOf(fields);
    Map<String, List<Integer>> lists = new HashMap<>();
    for (int row = 0; row < subsearch.rows(); row++) {
      int r = row;
      String key = key(this.fields, field -> subsearch.values(r, field));
      if (key != null) {
        lists.computeIfAbsent(key, k -> new ArrayList<>(1)).add(row);
      }
    }
    lists.forEach(
        (key, list) -> rows.put(key, list.stream().mapToInt(Integer::intValue).toArray()));
  }

  /**
   * The subsearch rows whose join fields equal those of {@code page}'s {@code position}, in the
   * subsearch's order (the array is the table's own: not to be changed).
   */
  int[] matches(Page page, int position) {
    String key = key(fields, field -> SubsearchRows.values(page, field, position));
    int[] found = key == null ? null : rows.get(key);
    return found == null ? NONE : found;
  }

  /** The join fields' first values' text, or null when one has none. */
  static String key(List<String> fields, java.util.function.Function<String, List<Object>> values) {
    StringBuilder key = new StringBuilder();
    for (String field : fields) {
      List<Object> found = values.apply(field);
      if (found.isEmpty()) {
        return null;
      }
      key.append(SearchTextFormat.text(field, found.get(0))).append('\u0000');
    }
    return key.toString();
  }
}
