package io.quarry.server.search.metric;

import io.quarry.codecs.metricstore.Postings;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.codecs.metricstore.SeriesSelector;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.SearchValues;
import io.quarry.ql.exec.TimeField;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The series a metric search reads, from its where clause (less {@code index=} and the time
 * modifiers, which the planner took): compiled once into a test of a series' string values — its
 * dimensions, {@code metric_name} and {@code index}, each one value or none — with the search
 * command's semantics for comparisons ({@link SearchValues}: case-insensitive values, wildcards,
 * numbers, CIDR blocks; {@code IN}, {@code AND}, {@code OR}, {@code NOT}). A bare word or phrase
 * matches no series (a series has no raw text). Top-level {@code name=value} terms without
 * wildcards are also looked up in the postings, so only the series that have them are looked at.
 */
final class SeriesFilter {
  /** A compiled part of the clause, over one series of one index. */
  @FunctionalInterface
  private interface Test {
    boolean holds(SeriesKey key, String index);
  }

  private SeriesFilter() {}

  static SeriesSelector selector(
      Optional<SearchExpression> filter, String index, Predicate<SeriesKey> also) {
    if (filter.isEmpty()) {
      return new SeriesSelector(List.of(), also);
    }
    Test test = compile(filter.get());
    List<String> terms = new ArrayList<>();
    requiredTerms(filter.get(), terms);
    return new SeriesSelector(terms, key -> also.test(key) && test.holds(key, index));
  }

  private static Test compile(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Term term -> (key, index) -> false; // no raw text
      case SearchExpression.Comparison c -> comparison(c.field(), c.operator(), c.value());
      case SearchExpression.In in -> {
        List<Test> any =
            in.values().stream()
                .map(v -> comparison(in.field(), ComparisonOperator.EQ, v))
                .toList();
        yield (key, index) -> any.stream().anyMatch(t -> t.holds(key, index));
      }
      case SearchExpression.And and -> {
        List<Test> all = and.operands().stream().map(SeriesFilter::compile).toList();
        yield (key, index) -> all.stream().allMatch(t -> t.holds(key, index));
      }
      case SearchExpression.Or or -> {
        List<Test> any = or.operands().stream().map(SeriesFilter::compile).toList();
        yield (key, index) -> any.stream().anyMatch(t -> t.holds(key, index)); // NOT(): none
      }
      case SearchExpression.Not not -> {
        Test operand = compile(not.operand());
        yield (key, index) -> !operand.holds(key, index);
      }
      case SearchExpression.SubsearchTerm sub ->
          throw new IllegalStateException(
              sub.subsearch().describe() + " was not run before the search (a planner bug)");
    };
  }

  /** {@code field operator value} over the series' value of the field ({@code _time}: seconds). */
  private static Test comparison(String field, ComparisonOperator operator, String value) {
    SearchValues comparison = new SearchValues(operator, value);
    boolean time = TimeField.is(field);
    return (key, index) -> {
      String own = MetricSearch.field(key, field, index);
      List<Object> values = own == null ? List.of() : List.of(own);
      return comparison.holds(time ? TimeField.seconds(values) : values);
    };
  }

  private static void requiredTerms(SearchExpression expression, List<String> terms) {
    switch (expression) {
      case SearchExpression.And and -> and.operands().forEach(o -> requiredTerms(o, terms));
      case SearchExpression.Comparison c -> {
        if (c.operator() == ComparisonOperator.EQ
            && !c.value().contains("*")
            && !c.field().equalsIgnoreCase("index")
            && !c.field().contains("*")) {
          terms.add(Postings.term(c.field(), c.value()));
        }
      }
      default -> {}
    }
  }
}
