package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.exec.Values;
import java.io.IOException;
import org.apache.lucene.index.FilteredTermsEnum;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.MultiTermQuery;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.util.AttributeSource;
import org.apache.lucene.util.BytesRef;

/**
 * The documents with a term of a keyword field that could satisfy {@code field <op> number} in the
 * per-event check: numeric terms that compare so, and every non-numeric term (the check compares
 * those as text, which this query does not try to predict). A superset by construction; it narrows
 * {@code status>=500} over an index-time {@code status} to the few terms 5xx, enumerated once per
 * segment from the field's term dictionary.
 */
final class NumericTermsQuery extends MultiTermQuery {
  private final ComparisonOperator operator;
  private final double number;

  /** Whether non-numeric terms are left out: then every document matched satisfies the check. */
  private final boolean numericOnly;

  NumericTermsQuery(String field, ComparisonOperator operator, double number) {
    this(field, operator, number, false);
  }

  /**
   * @param numericOnly leave out the non-numeric terms: the documents matched are then a subset of
   *     what the check accepts (each has a number that compares so), not a superset
   */
  NumericTermsQuery(String field, ComparisonOperator operator, double number, boolean numericOnly) {
    super(field, CONSTANT_SCORE_BLENDED_REWRITE);
    this.numericOnly = numericOnly;
    this.operator = requireNonNull(operator, "operator is null");
    if (operator == ComparisonOperator.EQ || operator == ComparisonOperator.NE) {
      throw new IllegalArgumentException("an ordering operator, not " + operator);
    }
    this.number = number;
  }

  @Override
  protected TermsEnum getTermsEnum(Terms terms, AttributeSource attributes) throws IOException {
    return new FilteredTermsEnum(terms.iterator(), false) {
      @Override
      protected AcceptStatus accept(BytesRef term) {
        double value = Values.toNumber(term.utf8ToString());
        boolean accepted =
            Double.isNaN(value) ? !numericOnly : satisfies(Double.compare(value, number));
        return accepted ? AcceptStatus.YES : AcceptStatus.NO;
      }
    };
  }

  private boolean satisfies(int comparison) {
    return switch (operator) {
      case LT -> comparison < 0;
      case LE -> comparison <= 0;
      case GT -> comparison > 0;
      case GE -> comparison >= 0;
      case EQ, NE -> throw new IllegalStateException("not an ordering operator: " + operator);
    };
  }

  @Override
  public void visit(QueryVisitor visitor) {
    if (visitor.acceptField(field)) {
      visitor.visitLeaf(this);
    }
  }

  @Override
  public String toString(String defaultField) {
    return field
        + operator.symbol()
        + Values.toText(number)
        + (numericOnly ? " (numeric terms only)" : " (numeric terms)");
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof NumericTermsQuery that
        && field.equals(that.field)
        && operator == that.operator
        && Double.compare(number, that.number) == 0
        && numericOnly == that.numericOnly;
  }

  @Override
  public int hashCode() {
    return ((field.hashCode() * 31 + operator.hashCode()) * 31 + Double.hashCode(number)) * 2
        + (numericOnly ? 1 : 0);
  }
}
