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
   * A bare word (may contain {@code *} wildcards) or a quoted phrase, matched against {@code _raw};
   * or a word in Splunk's {@code TERM()} or {@code CASE()} directive ({@link Directive}).
   */
  record Term(String text, boolean phrase, Directive directive, Position position)
      implements SearchExpression {
    public Term {
      requireNonNull(text, "text is null");
      requireNonNull(directive, "directive is null");
      requireNonNull(position, "position is null");
    }

    /** A bare word or phrase, no directive. */
    public Term(String text, boolean phrase, Position position) {
      this(text, phrase, Directive.NONE, position);
    }
  }

  /** How a bare word is matched. */
  enum Directive {
    /**
     * Splunk's default: the word's tokens and parts, case-insensitively ({@code 10.1.2} matches an
     * event holding {@code 10.1.2.3}).
     */
    NONE,
    /**
     * {@code TERM(x)}: x is a whole token between major breakers (spaces, brackets, quotes, {@code
     * , ; | = & ?} …), case-insensitively — no splitting at minor breakers ({@code . / : - _}), so
     * {@code TERM(10.1.2)} does not match {@code 10.1.2.3}.
     */
    TERM,
    /** {@code CASE(x)}: x matched as a bare word is, and its text appears with the same case. */
    CASE
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

  /**
   * A subsearch in search position: it runs first and the search expression its rows make (see
   * {@code plan.SubsearchExpander}) takes its place before the search is planned further.
   */
  record SubsearchTerm(Subsearch subsearch) implements SearchExpression {
    public SubsearchTerm {
      requireNonNull(subsearch, "subsearch is null");
    }
  }

  record Not(SearchExpression operand) implements SearchExpression {
    public Not {
      requireNonNull(operand, "operand is null");
    }
  }
}
