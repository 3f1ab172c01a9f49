package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Span;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.exec.ChartAggregation;
import java.util.List;

/**
 * What a source may count in place of rows for an aggregation whose whole work is counting — the
 * planner's rule for the index counting shortcuts: the source reads counts (from the term index,
 * keyword doc values or block value counts) and hands them to the aggregation as intermediate input
 * ({@link CountPages}, {@link PageAggregator#addIntermediateInput}), never making a row.
 *
 * <ul>
 *   <li>{@link Kind#ROWS}: {@code stats count} (only plain counts, no by-field) — matching
 *       documents;
 *   <li>{@link Kind#VALUES}: {@code stats count by f} (one by-field), {@code top f}/{@code rare f}
 *       (one field, no by-clause) — documents per value of {@code field};
 *   <li>{@link Kind#TIMED}: {@code timechart count by f} (the split field's values as they are, not
 *       binned) — documents per bucket of {@code span} and value of {@code field};
 *   <li>{@link Kind#GROUPS}: {@code stats count by f1, f2 …} (two or more by-fields) — documents
 *       per combination of one value of each of {@code by} ({@link CountPages#groups}); a document
 *       with several values of a by-field, or none, is left to the rows (Splunk's rule: a row
 *       without a by-field is not counted; one with several counts once per combination).
 * </ul>
 *
 * @param field the counted field (the first by-field of {@link Kind#GROUPS}); null for {@link
 *     Kind#ROWS}
 * @param span the base span of the buckets ({@link Kind#TIMED}); else null
 * @param by every counted field, in order ({@code field} alone but for {@link Kind#GROUPS})
 */
public record CountShortcut(Kind kind, String field, Span span, List<String> by) {

  /** What is counted. */
  public enum Kind {
    ROWS,
    VALUES,
    TIMED,
    GROUPS
  }

  public CountShortcut {
    requireNonNull(kind, "kind is null");
    by = List.copyOf(by);
    if ((kind == Kind.ROWS) != (field == null)) {
      throw new IllegalArgumentException("a field is counted unless rows are: " + kind);
    }
    if ((kind == Kind.TIMED) != (span != null)) {
      throw new IllegalArgumentException("a span buckets timed counts only: " + kind);
    }
    if ((kind == Kind.GROUPS) != (by.size() > 1)
        || (field != null && !by.get(0).equals(field))
        || (field == null && !by.isEmpty())) {
      throw new IllegalArgumentException("by-fields " + by + " do not fit " + kind);
    }
  }

  /** A shortcut of one counted field (or none, {@link Kind#ROWS}). */
  public CountShortcut(Kind kind, String field, Span span) {
    this(kind, field, span, field == null ? List.of() : List.of(field));
  }

  /** What a source may count for {@code aggregation}, or null when it must see every row. */
  public static CountShortcut of(Command aggregation) {
    return switch (aggregation) {
      case StatsCommand stats when onlyCounts(stats.aggregations()) -> {
        List<String> by = stats.groupBy();
        yield by.isEmpty()
            ? new CountShortcut(Kind.ROWS, null, null)
            : by.size() == 1
                ? new CountShortcut(Kind.VALUES, by.get(0), null)
                : by.stream().distinct().count() == by.size()
                    ? new CountShortcut(Kind.GROUPS, by.get(0), null, by)
                    : null;
      }
      case TopCommand top when top.fields().size() == 1 && top.by().isEmpty() ->
          new CountShortcut(Kind.VALUES, top.fields().get(0), null);
      case TimechartCommand timechart
          when timechart.by().isPresent()
              && timechart.layout().splitSpan().isEmpty() // values counted as they are
              && onlyCounts(timechart.aggregations()) ->
          new CountShortcut(Kind.TIMED, timechart.by().get(), ChartAggregation.baseSpan(timechart));
      default -> null;
    };
  }

  /** Whether every aggregation is a plain {@code count} (of rows, not of a field's values). */
  private static boolean onlyCounts(List<Aggregation> aggregations) {
    return aggregations.stream()
        .allMatch(a -> a.function() == AggregateFunction.COUNT && a.field().isEmpty());
  }
}
