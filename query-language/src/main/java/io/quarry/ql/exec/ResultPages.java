package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.engine.BlockCopies;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A stage's answer made at the end as pages from its result rows' fields ({@link
 * TransactionOperator}, {@link FieldSummaryOperator}: one row per transaction or field, few next to
 * their input; the rows of {@code | help}): a column per field any result has, in first-seen order,
 * each typed over the whole answer as {@link PageBuilder} types a field — so a column keeps one
 * type across the pages — then cut into pages of {@code pageSize} positions.
 */
public final class ResultPages {
  private ResultPages() {}

  /**
   * Hands {@code results} on as pages; a value is a field's one value or a {@code List} of several.
   * The list is emptied.
   */
  public static void emit(List<Map<String, Object>> results, int pageSize, Consumer<Page> out) {
    if (results.isEmpty()) {
      return;
    }
    Set<String> names = new LinkedHashSet<>();
    results.forEach(result -> names.addAll(result.keySet()));
    List<List<List<Object>>> columns = new ArrayList<>(names.size());
    for (String name : names) {
      List<List<Object>> cells = new ArrayList<>(results.size());
      for (Map<String, Object> result : results) {
        Object value = result.get(name);
        cells.add(
            value == null
                ? List.of()
                : value instanceof List<?> list ? List.copyOf(list) : List.of(value));
      }
      columns.add(cells);
    }
    int positions = results.size();
    results.clear();
    Page answer = PageBuilder.toPage(List.copyOf(names), columns, positions);
    if (positions <= pageSize) {
      out.accept(answer);
      return;
    }
    for (int start = 0; start < positions; start += pageSize) {
      int count = Math.min(pageSize, positions - start);
      int[] kept = new int[count];
      for (int i = 0; i < count; i++) {
        kept[i] = start + i;
      }
      out.accept(BlockCopies.filter(answer, kept, count));
    }
  }
}
