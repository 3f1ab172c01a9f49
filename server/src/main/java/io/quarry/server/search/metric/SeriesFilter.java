package io.quarry.server.search.metric;

import io.quarry.codecs.metricstore.Postings;
import io.quarry.codecs.metricstore.SeriesKey;
import io.quarry.codecs.metricstore.SeriesSelector;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowPredicates;
import io.quarry.ql.exec.SearchTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The series a metric search reads, from its where clause (less {@code index=} and the time
 * modifiers, which the planner took): a series is seen as a row of its dimensions, {@code
 * metric_name} and {@code index}, and the clause is evaluated over it with the search command's
 * semantics (case-insensitive values, wildcards, OR, NOT, IN, comparisons). Top-level {@code
 * name=value} terms without wildcards are also looked up in the postings, so only the series that
 * have them are looked at.
 */
final class SeriesFilter {
  private SeriesFilter() {}

  static SeriesSelector selector(
      Optional<SearchExpression> filter, String index, Predicate<SeriesKey> also) {
    if (filter.isEmpty()) {
      return new SeriesSelector(List.of(), also);
    }
    Predicate<Row> predicate = RowPredicates.compile(filter.get());
    List<String> terms = new ArrayList<>();
    requiredTerms(filter.get(), terms);
    return new SeriesSelector(
        terms, key -> also.test(key) && predicate.test(new SeriesRow(key, index)));
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

  /** A series as a row: {@code metric_name}, {@code index} and its dimensions. */
  static final class SeriesRow implements Row {
    private final SeriesKey key;
    private final String index;

    SeriesRow(SeriesKey key, String index) {
      this.key = key;
      this.index = index;
    }

    @Override
    public List<Object> values(String field) {
      if (field.equals(Postings.METRIC_NAME)) {
        return List.of(key.metricName());
      }
      if (field.equals("index")) {
        return List.of(index);
      }
      String value = key.dimension(field);
      return value == null ? List.of() : List.of(value);
    }

    @Override
    public List<String> fieldNames() {
      List<String> names = new ArrayList<>();
      names.add(Postings.METRIC_NAME);
      names.add("index");
      for (int i = 0; i < key.size(); i++) {
        names.add(key.name(i));
      }
      return names;
    }

    @Override
    public boolean matchesTerm(SearchTerm term) {
      return false; // a series has no raw text
    }
  }
}
