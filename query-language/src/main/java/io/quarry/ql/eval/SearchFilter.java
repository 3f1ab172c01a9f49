package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DoubleBlock;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.Cidr;
import io.quarry.ql.exec.EventText;
import io.quarry.ql.exec.RawTermMatcher;
import io.quarry.ql.exec.SearchTerm;
import io.quarry.ql.exec.SearchValues;
import io.quarry.ql.exec.TimeField;
import io.quarry.ql.exec.Values;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code search} compiled once into a test of whole pages: the positions it keeps. A comparison
 * with a number ({@code status>=500}, {@code bytes!=0}) is decided from the block for a position
 * holding one long, double or numeric text; anything else (a multivalue, text that is not a number,
 * {@code _time} as epoch seconds, a wildcard, a CIDR block, a text value) by {@link SearchValues}
 * over the position's values; a bare word or phrase in the position's raw text, or where it has no
 * {@code _raw} among its field values ({@link FieldValueTerm}). {@code AND}, {@code OR}, {@code
 * NOT} and {@code IN} combine the answers position by position. One instance per thread.
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
   * {@code _raw} by {@code rawTerms} (an event listing's own text; a position without {@code _raw}
   * among its field values: {@link FieldValueTerm}), as {@code searchmatch()} and the {@code
   * search} command match an event.
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
      case SearchExpression.Comparison c -> comparison(c);
      case SearchExpression.In in -> {
        List<Test> equalities = new ArrayList<>();
        for (String value : in.values()) {
          equalities.add(
              comparison(
                  new SearchExpression.Comparison(
                      in.field(), ComparisonOperator.EQ, value, false, in.position())));
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
      case SearchExpression.Term term ->
          new TermTest(new SearchTerm(term.text(), term.phrase(), term.directive()), terms);
      case SearchExpression.SubsearchTerm sub ->
          throw new IllegalStateException(
              sub.subsearch().describe() + " was not run before the search (a planner bug)");
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

  /**
   * A bare word or phrase, per position: the position's current {@code _raw} where it holds one (as
   * Splunk's {@code search} reads the result's {@code _raw}: {@code eval _raw="x"} is matched on
   * x); else an event's own text ({@link EventText#OWN_RAW}) where the page carries it and the
   * position holds it (an event whose {@code _raw} an {@code eval} set to null); else — and on a
   * page without either (a result row of {@code stats}, an event after {@code table}, {@code fields
   * - _raw}) — when one of its field values is the term ({@link FieldValueTerm}). A page may mix
   * them (after {@code append}): each position by its own rule.
   */
  private record TermTest(SearchTerm term, RawTermMatcher matcher, FieldValueTerm values)
      implements Test {
    TermTest(SearchTerm term, RawTermMatcher matcher) {
      this(term, matcher, new FieldValueTerm(term));
    }

    @Override
    public void test(Page page, boolean[] into) {
      Block raw = page.block("_raw");
      // the current _raw first, the event's own text where that is null (the hidden column goes
      // where _raw goes: EventText.ownTextAfterProjection, ownTextAfterRename), else the fields
      Block own = page.block(EventText.OWN_RAW);
      List<Block> fields = null;
      for (int p = 0; p < page.positionCount(); p++) {
        Block text =
            raw != null && !raw.isNull(p) ? raw : own != null && !own.isNull(p) ? own : null;
        if (text == null) {
          if (fields == null) {
            fields = FieldValueTerm.fields(page);
          }
          into[p] = values.matches(fields, p);
          continue;
        }
        if (matcher == null) {
          throw new UnsupportedOperationException("no term matcher to search a page's raw text");
        }
        into[p] = matcher.matches(Values.toText(Values.valuesOf(text, p).get(0)), term);
      }
    }
  }

  /** A comparison over the field's values at each position ({@link SearchValues}). */
  private record ValuesTest(String field, SearchValues comparison) implements Test {
    @Override
    public void test(Page page, boolean[] into) {
      Block block = page.block(field);
      boolean time = TimeField.is(field);
      for (int p = 0; p < page.positionCount(); p++) {
        List<Object> values = block == null ? List.of() : Values.valuesOf(block, p);
        into[p] = comparison.holds(time ? TimeField.seconds(values) : values);
      }
    }
  }

  private static Test comparison(SearchExpression.Comparison comparison) {
    SearchValues values = new SearchValues(comparison.operator(), comparison.value());
    String expected = comparison.value();
    double number = Values.toNumber(expected);
    if (TimeField.is(comparison.field())
        || Double.isNaN(number)
        || Wildcard.hasWildcard(expected)
        || Cidr.parse(expected).isPresent()) {
      return new ValuesTest(comparison.field(), values);
    }
    return new NumberComparison(comparison.field(), comparison.operator(), number, values);
  }

  /**
   * {@code field op number} decided from the block for a position of one numeric value, by {@link
   * SearchValues} over the position's values for any other.
   */
  private static final class NumberComparison implements Test {
    private final String field;
    private final ComparisonOperator operator;
    private final double number;
    private final SearchValues values;
    private final long[] whole = new long[1];

    NumberComparison(
        String field, ComparisonOperator operator, double number, SearchValues values) {
      this.field = field;
      this.operator = operator;
      this.number = number;
      this.values = values;
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
        into[p] = Double.isNaN(actual) ? values.holds(Values.valuesOf(block, p)) : holds(actual);
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
