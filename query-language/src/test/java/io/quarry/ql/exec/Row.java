package io.quarry.ql.exec;

import java.util.List;

/**
 * One result row as the tests' reference evaluator reads it ({@link RowEvaluator}, {@link
 * RowPredicates}): the row walk the page engine is held to, kept in test sources only. Values are
 * {@code String}, {@code Long}, {@code Double} or {@code Boolean}.
 */
public interface Row {

  /** The values of a field, in order; empty when the row does not have it. */
  List<Object> values(String field);

  /**
   * A field's single value as characters when the row can give them without building its values —
   * an event's {@code _raw} as a view of the journal block it lies in — for an operator that reads
   * them at once and keeps only copies ({@code rex}). The view may change when the next row is
   * read.
   *
   * @return null when the row has no such view: use {@link #values}
   */
  default CharSequence text(String field) {
    return null;
  }

  /** The field names of the row, in a stable order (used when a row becomes a page column). */
  List<String> fieldNames();

  /**
   * Every field the row can yield, including ones extracted only when asked for (an event's
   * search-time fields): more expensive than {@link #fieldNames}, for {@code fieldsummary}.
   */
  default List<String> discoverableFieldNames() {
    return fieldNames();
  }

  /**
   * Whether the row's raw text holds a term: a token for a bare word ({@code *} wildcards allowed),
   * a case-insensitive substring for a quoted phrase. Rows without raw text hold no terms.
   */
  boolean matchesTerm(SearchTerm term);
}
