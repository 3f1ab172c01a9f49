package io.quarry.ql.exec;

import io.quarry.ql.ast.ComparisonOperator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A {@code search} comparison ({@code f=v}, {@code f!=v}, {@code f<v} …) as a test of a field's
 * values, with Splunk's semantics: {@code f=v} holds when any value of f matches v
 * (case-insensitively, {@code *} wildcards, numerically when both sides are numbers, as a CIDR
 * block for {@code a.b.c.d/n}); {@code f!=v} needs f to have a value and none matching; the
 * ordering operators compare numerically when both sides are numbers (a NaN value against a number:
 * false, as IEEE 754's unordered) and as text otherwise. What {@code
 * io.quarry.ql.eval.SearchFilter} asks of a block's values at a position and the metric store's
 * series filter of a series' values; the caller gives {@code _time} as epoch seconds ({@link
 * TimeField#seconds(List)}).
 */
public final class SearchValues {
  private final ComparisonOperator operator;
  private final Predicate<Object> test;

  /** The comparison {@code operator value}. */
  public SearchValues(ComparisonOperator operator, String value) {
    this.operator = operator;
    this.test =
        switch (operator) {
          case EQ, NE -> equality(value);
          default -> ordering(operator, value);
        };
  }

  /** Whether a field with {@code values} (none: the field is absent) satisfies the comparison. */
  public boolean holds(List<Object> values) {
    boolean any = false;
    for (Object value : values) {
      if (test.test(value)) {
        any = true;
        break;
      }
    }
    return operator == ComparisonOperator.NE ? !values.isEmpty() && !any : any;
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
      } else if (!Double.isNaN(number) && actual instanceof Double) {
        return false; // a NaN is unordered against any number (IEEE 754)
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
