package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.RawTermMatcher;
import java.util.List;

/**
 * {@code searchmatch("<search>")} over a page: the search, parsed and compiled once ({@link
 * SearchFilter}), tested on every position — its bare words and phrases against the position's
 * {@code _raw} as the {@code search} command matches an event's raw text, its comparisons against
 * the page's columns — true or false, never null. A search that is empty matches nothing, as {@code
 * Evaluator}'s {@code searchmatch} answers.
 */
final class SearchMatchEvaluator implements ExpressionEvaluator {
  private final SearchFilter filter; // null: an empty search
  private final List<String> overlaid; // fields an earlier assignment of the eval set …
  private final int[] slots; // … in these slots
  private boolean[] matches = new boolean[0];

  SearchMatchEvaluator(SearchExpression search, RawTermMatcher rawTerms) {
    this(search, rawTerms, List.of(), new int[0]);
  }

  /**
   * As above, the search reading the fields {@code overlaid.get(i)} from the assigned slot {@code
   * slots[i]} instead of the page (the eval's earlier assignments, each as a block: the column the
   * eval would add to the page).
   */
  SearchMatchEvaluator(
      SearchExpression search, RawTermMatcher rawTerms, List<String> overlaid, int[] slots) {
    this.filter = search == null ? null : SearchFilter.compile(search, rawTerms);
    this.overlaid = List.copyOf(overlaid);
    this.slots = slots.clone();
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
      Page page = frame.page();
      for (int i = 0; i < slots.length; i++) {
        String field = overlaid.get(i);
        page = page.withColumn(field, ColumnBlocks.block(field, frame.assigned(slots[i])));
      }
      filter.matches(page, matches);
    }
    ArrayColumn out = new ArrayColumn(size);
    for (int p = 0; p < size; p++) {
      out.setBoolean(p, matches[p]);
    }
    return out;
  }
}
