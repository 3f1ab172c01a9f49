package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.parser.Position;
import java.util.List;

/**
 * The boolean expression of {@code search}. Bare terms match tokens of {@code _raw}; comparisons
 * match field values. In {@code search}, precedence is NOT, then OR, then the implicit AND.
 */
public sealed interface SearchExpression {

  /**
   * A bare word (may contain {@code *} wildcards) or a quoted phrase, matched against {@code _raw}.
   */
  record Term(String text, boolean phrase, Position position) implements SearchExpression {
    public Term {
      requireNonNull(text, "text is null");
      requireNonNull(position, "position is null");
    }
  }

  /** {@code field op value}; {@code value} may hold wildcards ({@code =}, {@code !=}) or a CIDR. */
  record Comparison(
      String field, ComparisonOperator operator, String value, boolean quoted, Position position)
      implements SearchExpression {
    public Comparison {
      requireNonNull(field, "field is null");
      requireNonNull(operator, "operator is null");
      requireNonNull(value, "value is null");
      requireNonNull(position, "position is null");
    }
  }

  /** {@code field IN (v1, v2, …)}. */
  record In(String field, List<String> values, Position position) implements SearchExpression {
    public In {
      requireNonNull(field, "field is null");
      values = List.copyOf(values);
      requireNonNull(position, "position is null");
    }
  }

  record And(List<SearchExpression> operands) implements SearchExpression {
    public And {
      operands = List.copyOf(operands);
    }
  }

  record Or(List<SearchExpression> operands) implements SearchExpression {
    public Or {
      operands = List.copyOf(operands);
    }
  }

  record Not(SearchExpression operand) implements SearchExpression {
    public Not {
      requireNonNull(operand, "operand is null");
    }
  }
}
