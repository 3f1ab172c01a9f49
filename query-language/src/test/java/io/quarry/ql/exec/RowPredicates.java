package io.quarry.ql.exec;

import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import java.util.function.Predicate;

/**
 * Compiles a search expression into a predicate over rows ({@link Row}: {@code searchmatch()} in
 * the tests' reference {@link RowEvaluator}, the reference {@code SearchFilterTest} holds the
 * compiled page filter to): each comparison a {@link SearchValues} over the row's values, {@code
 * _time} as epoch seconds ({@link TimeField}), a term asked of the row's raw text. Pages are
 * searched by {@code io.quarry.ql.eval.SearchFilter}.
 */
public final class RowPredicates {
  private RowPredicates() {}

  public static Predicate<Row> compile(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Term term -> {
        SearchTerm prepared = new SearchTerm(term.text(), term.phrase(), term.directive());
        yield row -> row.matchesTerm(prepared);
      }
      case SearchExpression.Comparison c -> comparison(c.field(), c.operator(), c.value());
      case SearchExpression.In in ->
          in.values().stream()
              .map(v -> comparison(in.field(), ComparisonOperator.EQ, v))
              .reduce(Predicate::or)
              .orElse(row -> false);
      case SearchExpression.And and ->
          and.operands().stream().map(RowPredicates::compile).reduce(Predicate::and).orElseThrow();
      case SearchExpression.Or or ->
          or.operands().stream()
              .map(RowPredicates::compile)
              .reduce(Predicate::or)
              .orElse(row -> false); // NOT(): nothing
      case SearchExpression.SubsearchTerm sub ->
          throw new IllegalStateException(
              sub.subsearch().describe() + " was not run before the search (a planner bug)");
      case SearchExpression.Not not -> compile(not.operand()).negate();
    };
  }

  private static Predicate<Row> comparison(
      String field, ComparisonOperator operator, String value) {
    SearchValues comparison = new SearchValues(operator, value);
    return TimeField.is(field)
        ? row -> comparison.holds(TimeField.seconds(row.values(field)))
        : row -> comparison.holds(row.values(field));
  }
}
