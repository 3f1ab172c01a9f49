package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The join fields of {@code join} without a field list, row by row in the order the rows come: the
 * subsearch's columns that hold a value in this row or in any row before it. A row missing one of
 * them matches nothing. Splunk joins on the fields common to both result sets and a row missing one
 * does not match; a stream cannot know the main side's fields before its last row, so a field
 * counts from the first row that holds it on: a row before it joins on the others (the one
 * deliberate difference, and only where the rows holding a shared field do not come first). The
 * answer depends on the rows' order, never on where pages part.
 *
 * <p>The fields only grow, so they change at most once per subsearch column: a join holds one hash
 * table at a time, the one of the fields of the last row.
 */
final class JoinFields {
  private final List<String> columns;
  private final boolean[] seen;
  private List<String> current = List.of();

  /** {@code columns}: the subsearch's columns, in their order (the join fields keep it). */
  JoinFields(List<String> columns) {
    this.columns = List.copyOf(columns);
    this.seen = new boolean[columns.size()];
  }

  /**
   * The join fields of the next row ({@code holds}: whether the row has a value of a column) — the
   * same list instance until they grow —, or null when the row misses one of them or there are
   * none: it matches nothing.
   */
  List<String> next(Predicate<String> holds) {
    boolean grew = false;
    boolean missing = false;
    for (int c = 0; c < seen.length; c++) {
      if (holds.test(columns.get(c))) {
        grew |= !seen[c];
        seen[c] = true;
      } else {
        missing |= seen[c];
      }
    }
    if (grew) {
      List<String> fields = new ArrayList<>();
      for (int c = 0; c < seen.length; c++) {
        if (seen[c]) {
          fields.add(columns.get(c));
        }
      }
      current = List.copyOf(fields);
    }
    return missing || current.isEmpty() ? null : current;
  }
}
