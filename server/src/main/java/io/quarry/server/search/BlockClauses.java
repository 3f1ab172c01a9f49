package io.quarry.server.search;

import static io.quarry.server.search.BlockCondition.MAYBE;
import static io.quarry.server.search.BlockCondition.NO;
import static io.quarry.server.search.BlockCondition.SURE;

import io.quarry.codecs.store.EventFields;
import io.quarry.codecs.tokens.Segmenter;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.Cidr;
import io.quarry.ql.exec.Values;
import io.quarry.ql.exec.Wildcard;
import java.util.Locale;
import java.util.Map;

/**
 * The clauses of a {@link BlockCondition}: a search filter translated, field by field, into tests
 * of one value's lower-cased keyword term ({@link BlockCondition#SURE}, {@link BlockCondition#NO}
 * or {@link BlockCondition#MAYBE}) as {@link LuceneTranslator} translates the same filter for the
 * event layout; a filter with a part no clause can say (a bare term, a wildcard, two fields under
 * one {@code OR}) has none.
 */
final class BlockClauses {
  private BlockClauses() {}

  /**
   * Adds the clauses of {@code expression}, a conjunction, to {@code into} (two on one field
   * combined: both must hold); false when some part is no clause.
   */
  static boolean conjunction(SearchExpression expression, Map<String, BlockCondition.Test> into) {
    if (expression instanceof SearchExpression.And and) {
      for (SearchExpression operand : and.operands()) {
        if (!conjunction(operand, into)) {
          return false;
        }
      }
      return true;
    }
    Clause clause = clause(expression);
    if (clause == null) {
      return false;
    }
    into.merge(
        clause.field(), clause.test(), (a, b) -> term -> (byte) Math.min(a.of(term), b.of(term)));
    return true;
  }

  private record Clause(String field, BlockCondition.Test test) {}

  /** A clause on one field, or null. */
  private static Clause clause(SearchExpression expression) {
    return switch (expression) {
      case SearchExpression.Comparison c -> comparison(c.field(), c.operator(), c.value());
      case SearchExpression.In in -> {
        Clause any = null;
        for (String value : in.values()) {
          any = either(any, comparison(in.field(), ComparisonOperator.EQ, value));
          if (any == null) {
            yield null;
          }
        }
        yield any;
      }
      case SearchExpression.Or or -> {
        Clause any = null;
        for (SearchExpression operand : or.operands()) {
          any = either(any, clause(operand));
          if (any == null) {
            yield null;
          }
        }
        yield any;
      }
      case SearchExpression.And and -> {
        Clause all = null;
        for (SearchExpression operand : and.operands()) {
          Clause next = clause(operand);
          if (next == null || (all != null && !all.field().equals(next.field()))) {
            yield null;
          }
          BlockCondition.Test a = all == null ? term -> SURE : all.test();
          all = new Clause(next.field(), term -> (byte) Math.min(a.of(term), next.test().of(term)));
        }
        yield all;
      }
      case SearchExpression.Not not -> {
        Clause inner = clause(not.operand());
        yield inner == null
            ? null
            : new Clause(inner.field(), term -> (byte) (SURE - inner.test().of(term)));
      }
      default -> null;
    };
  }

  /** {@code a OR b}, on one field; null when either is null or they differ in field. */
  private static Clause either(Clause a, Clause b) {
    if (b == null) {
      return null;
    }
    if (a == null) {
      return b;
    }
    if (!a.field().equals(b.field())) {
      return null;
    }
    return new Clause(a.field(), term -> (byte) Math.max(a.test().of(term), b.test().of(term)));
  }

  /** As {@link LuceneTranslator}'s equality and ordering translate a comparison. */
  private static Clause comparison(String field, ComparisonOperator operator, String value) {
    if (field.startsWith("_") || field.equals(EventFields.INDEX)) {
      return null;
    }
    boolean numeric = LuceneTranslator.looksNumeric(value);
    boolean keywordField = LuceneTranslator.KEYWORD_FIELDS.contains(field);
    switch (operator) {
      case EQ -> {
        if (DateFields.is(field) || Cidr.parse(value).isPresent() || Wildcard.hasWildcard(value)) {
          return null;
        }
        if (keywordField
            ? numeric
            : numeric && !LuceneTranslator.PLAIN_INTEGER.matcher(value).matches()) {
          return null;
        }
        if (!keywordField && Segmenter.requiredParts(value).isEmpty()) {
          return null; // translated to every event: the check decides
        }
        String wanted = value.toLowerCase(Locale.ROOT);
        return new Clause(field, term -> wanted.equals(term) ? SURE : NO);
      }
      case LT, LE, GT, GE -> {
        if (keywordField || !numeric) {
          return null;
        }
        double number = Values.toNumber(value);
        return new Clause(
            field,
            term -> {
              if (term == null) {
                return NO;
              }
              double of = Values.toNumber(term);
              if (Double.isNaN(of)) {
                return MAYBE; // compared as text by the check
              }
              int comparison = Double.compare(of, number);
              boolean satisfies =
                  switch (operator) {
                    case LT -> comparison < 0;
                    case LE -> comparison <= 0;
                    case GT -> comparison > 0;
                    default -> comparison >= 0;
                  };
              return satisfies ? SURE : NO;
            });
      }
      default -> {
        return null;
      }
    }
  }
}
