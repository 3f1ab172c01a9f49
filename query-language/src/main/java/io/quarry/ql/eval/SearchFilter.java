package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.Cidr;
import io.quarry.ql.exec.PageRow;
import io.quarry.ql.exec.RawTermMatcher;
import io.quarry.ql.exec.Row;
import io.quarry.ql.exec.RowPredicates;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A {@code search} of field comparisons compiled once into a test of whole pages: the positions it
 * keeps, with {@link RowPredicates}' semantics exactly. A comparison with a number ({@code
 * status>=500}, {@code bytes!=0}) is decided here for a position holding one long, double or
 * numeric text; anything else at that position (a multivalue, text that is not a number, {@code
 * _time}, a wildcard, a CIDR block, a text value) is asked of the row predicate over a {@link
 * PageRow}. {@code AND}, {@code OR}, {@code NOT} and {@code IN} combine the answers position by
 * position. One instance per thread.
 */
public final class SearchFilter {
  private final Test test;
  private boolean[] matches = new boolean[0];

  private SearchFilter(Test test) {
    this.test = test;
  }

  /** The filter of a search expression of comparisons (no bare terms: those search raw text). */
  public static SearchFilter compile(SearchExpression expression) {
    return new SearchFilter(test(expression, null));
  }

  /**
   * The filter of any search expression: its bare words and phrases matched in each position's
   * {@code _raw} by {@code rawTerms} ({@link PageRow#matchesTerm}; a position without {@code _raw}
   * holds no term), as {@code searchmatch()} and the {@code search} command match an event.
   */
  public static SearchFilter compile(SearchExpression expression, RawTermMatcher rawTerms) {
    return new SearchFilter(test(expression, rawTerms));
  }

  /** Whether each position of {@code page} matches: {@code into[p]}, for every position. */
  public void matches(Page page, boolean[] into) {
    test.test(page, into);
  }

  /**
   * Writes the positions of {@code page} the search keeps into {@code positions} (at least as long
   * as the page), in order.
   *
   * @return how many there are
   */
  public int select(Page page, int[] positions) {
    int size = page.positionCount();
    if (matches.length < size) {
      matches = new boolean[size];
    }
    test.test(page, matches);
    int count = 0;
    for (int p = 0; p < size; p++) {
      if (matches[p]) {
        positions[count++] = p;
      }
    }
    return count;
  }

  /** Whether each position of a page matches: {@code into[p]}, for every position. */
  private interface Test {
    void test(Page page, boolean[] into);
  }

  private static Test test(SearchExpression expression, RawTermMatcher terms) {
    return switch (expression) {
      case SearchExpression.Comparison c -> comparison(c, terms);
      case SearchExpression.In in -> {
        List<Test> equalities = new ArrayList<>();
        for (String value : in.values()) {
          equalities.add(
              comparison(
                  new SearchExpression.Comparison(
                      in.field(), ComparisonOperator.EQ, value, false, in.position()),
                  terms));
        }
        yield combine(equalities, false);
      }
      case SearchExpression.And and ->
          combine(and.operands().stream().map(o -> test(o, terms)).toList(), true);
      case SearchExpression.Or or ->
          combine(or.operands().stream().map(o -> test(o, terms)).toList(), false);
      case SearchExpression.Not not -> {
        Test operand = test(not.operand(), terms);
        yield (page, into) -> {
          operand.test(page, into);
          for (int p = 0; p < page.positionCount(); p++) {
            into[p] = !into[p];
          }
        };
      }
      default -> rows(RowPredicates.compile(expression), terms);
    };
  }

  /** Every operand true ({@code all}) or any ({@code !all}); none: {@code all} (Splunk's NOT()). */
  private static Test combine(List<Test> operands, boolean all) {
    return (page, into) -> {
      int size = page.positionCount();
      java.util.Arrays.fill(into, 0, size, all);
      boolean[] each = new boolean[size];
      for (Test operand : operands) {
        operand.test(page, each);
        for (int p = 0; p < size; p++) {
          into[p] = all ? into[p] && each[p] : into[p] || each[p];
        }
      }
    };
  }

  /** The row predicate at each position. */
  private static Test rows(Predicate<Row> predicate, RawTermMatcher terms) {
    PageRow row = new PageRow(Map.of(), terms);
    return (page, into) -> {
      for (int p = 0; p < page.positionCount(); p++) {
        into[p] = predicate.test(row.at(page, p));
      }
    };
  }

  private static Test comparison(SearchExpression.Comparison comparison, RawTermMatcher terms) {
    Predicate<Row> predicate = RowPredicates.compile(comparison);
    String expected = comparison.value();
    double number = Values.toNumber(expected);
    if (TimeField.is(comparison.field())
        || Double.isNaN(number)
        || Wildcard.hasWildcard(expected)
        || Cidr.parse(expected).isPresent()) {
      return rows(predicate, terms);
    }
    return new NumberComparison(comparison.field(), comparison.operator(), number, predicate);
  }

  /**
   * {@code field op number} decided from the block for a position of one numeric value, the row
   * predicate for any other.
   */
  private static final class NumberComparison implements Test {
    private final String field;
    private final ComparisonOperator operator;
    private final double number;
    private final Predicate<Row> predicate;
    private final PageRow row = new PageRow(Map.of());
    private final long[] whole = new long[1];

    NumberComparison(
        String field, ComparisonOperator operator, double number, Predicate<Row> predicate) {
      this.field = field;
      this.operator = operator;
      this.number = number;
      this.predicate = predicate;
    }

    @Override
    public void test(Page page, boolean[] into) {
      Block block = page.block(field);
      BlockColumn texts = block instanceof BytesBlock ? new BlockColumn(field, block) : null;
      int size = page.positionCount();
      for (int p = 0; p < size; p++) {
        if (block == null || block.isNull(p)) {
          into[p] = false; // no value: no comparison holds, != needs the field
          continue;
        }
        double actual =
            block.getValueCount(p) != 1
                ? Double.NaN
                : switch (block) {
                  case LongBlock longs -> longs.getLong(p);
                  case DoubleBlock doubles -> doubles.getDouble(p);
                  case BytesBlock bytes ->
                      texts.smallInteger(p, whole, 0)
                          ? whole[0]
                          : Values.toNumber(bytes.getString(p));
                  default -> Double.NaN;
                };
        into[p] = Double.isNaN(actual) ? predicate.test(row.at(page, p)) : holds(actual);
      }
    }

    private boolean holds(double actual) {
      return switch (operator) {
        case EQ -> actual == number;
        case NE -> actual != number;
        case LT -> Double.compare(actual, number) < 0;
        case LE -> Double.compare(actual, number) <= 0;
        case GT -> Double.compare(actual, number) > 0;
        case GE -> Double.compare(actual, number) >= 0;
      };
    }
  }
}
