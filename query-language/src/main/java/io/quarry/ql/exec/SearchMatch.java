package io.quarry.ql.exec;

import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.parser.SearchExpressionParser;
import io.quarry.ql.parser.TokenReader;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * {@code searchmatch("<search>")}: whether a row matches a search as the {@code search} command
 * matches it (terms in the event's raw text, case-insensitive; field comparisons on its fields).
 * The searches are compiled once per evaluator ({@link RowPredicates}). A row with no raw text (a
 * page position) cannot be searched for terms: the page chain leaves evals that call it to the
 * rows.
 */
final class SearchMatch {
  private final Map<String, Predicate<Row>> compiled = new ConcurrentHashMap<>();

  /**
   * The search in {@code text}, or null when it is empty.
   *
   * @throws io.quarry.ql.parser.QueryParseException when it is not a search
   */
  static SearchExpression parse(String text) {
    return new SearchExpressionParser(new TokenReader(text)).parseCommandExpression().orElse(null);
  }

  boolean test(String search, Row row) {
    Predicate<Row> predicate =
        compiled.computeIfAbsent(
            search,
            text -> {
              SearchExpression expression = parse(text);
              return expression == null ? r -> false : RowPredicates.compile(expression);
            });
    return predicate.test(row);
  }
}
