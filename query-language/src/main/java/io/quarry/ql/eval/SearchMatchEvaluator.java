package io.quarry.ql.eval;

import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.RawTermMatcher;

/**
 * {@code searchmatch("<search>")} over a page: the search, parsed and compiled once ({@link
 * SearchFilter}), tested on every position — its bare words and phrases against the position's
 * {@code _raw} as the {@code search} command matches an event's raw text, its comparisons against
 * the page's columns — true or false, never null. A search that is empty matches nothing, as {@code
 * Evaluator}'s {@code searchmatch} answers.
 */
final class SearchMatchEvaluator implements ExpressionEvaluator {
  private final SearchFilter filter; // null: an empty search
  private boolean[] matches = new boolean[0];

  SearchMatchEvaluator(SearchExpression search, RawTermMatcher rawTerms) {
    this.filter = search == null ? null : SearchFilter.compile(search, rawTerms);
  }

  @Override
  public ValueColumn eval(Frame frame) {
    int size = frame.size();
    if (matches.length < size) {
      matches = new boolean[size];
    }
    if (filter == null) {
      java.util.Arrays.fill(matches, 0, size, false);
    } else {
      filter.matches(frame.page(), matches);
    }
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      out.setBoolean(p, matches[p]);
    }
    return out;
  }
}
