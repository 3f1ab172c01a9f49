package io.quarry.ql.exec;

import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Compiles a search expression into a predicate over rows, with Splunk's semantics: {@code f=v}
 * matches when any value of f matches v (case-insensitively, {@code *} wildcards, numerically when
 * both sides are numbers, as a CIDR block for {@code a.b.c.d/n}); {@code f!=v} needs f to exist;
 * the ordering operators compare numerically when both sides are numbers and as text otherwise.
 * {@code _time} compares as epoch seconds ({@link TimeField}).
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
    Function<Row, List<Object>> valuesOf =
        TimeField.is(field)
            ? row -> TimeField.seconds(row.values(field))
            : row -> row.values(field);
    return switch (operator) {
      case EQ -> {
        Predicate<Object> equal = equality(value);
        yield row -> anyValue(valuesOf.apply(row), equal);
      }
      case NE -> {
        Predicate<Object> equal = equality(value);
        yield row -> {
          List<Object> values = valuesOf.apply(row);
          return !values.isEmpty() && !anyValue(values, equal);
        };
      }
      default -> {
        Predicate<Object> ordered = ordering(operator, value);
        yield row -> anyValue(valuesOf.apply(row), ordered);
      }
    };
  }

  private static boolean anyValue(List<Object> values, Predicate<Object> test) {
    for (Object value : values) {
      if (test.test(value)) {
        return true;
      }
    }
    return false;
  }

  private static Predicate<Object> equality(String expected) {
    Optional<Cidr> cidr = Cidr.parse(expected);
    if (cidr.isPresent()) {
      Cidr block = cidr.get();
      return actual -> block.contains(Values.toText(actual));
    }
    if (Wildcard.hasWildcard(expected)) {
      Wildcard pattern = new Wildcard(expected);
      return actual -> pattern.matches(Values.toText(actual));
    }
    double number = Values.parseNumber(expected);
    return actual -> {
      if (!Double.isNaN(number)) {
        double actualNumber = Values.toNumber(actual);
        if (!Double.isNaN(actualNumber)) {
          return actualNumber == number;
        }
      }
      return Values.toText(actual).equalsIgnoreCase(expected);
    };
  }

  private static Predicate<Object> ordering(ComparisonOperator operator, String expected) {
    double number = Values.parseNumber(expected);
    return actual -> {
      int comparison;
      double actualNumber = Values.toNumber(actual);
      if (!Double.isNaN(number) && !Double.isNaN(actualNumber)) {
        comparison = Double.compare(actualNumber, number);
      } else {
        comparison = Values.toText(actual).compareTo(expected);
      }
      return switch (operator) {
        case LT -> comparison < 0;
        case LE -> comparison <= 0;
        case GT -> comparison > 0;
        case GE -> comparison >= 0;
        default -> throw new IllegalArgumentException("not an ordering: " + operator);
      };
    };
  }
}
