package io.quarry.ql.eval;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.SearchTerm;
import io.quarry.ql.exec.SearchValues;
import io.quarry.ql.exec.Values;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A bare word or quoted phrase of {@code search} over a row that has no {@code _raw}: an
 * aggregation's answer, a generator's, an event after {@code table}, {@code fields - _raw} or
 * {@code rename _raw AS …}. Such a row matches when <b>one of its field values is the term</b>, as
 * {@code <some field>=<term>} would hold ({@link SearchValues}): the whole value,
 * case-insensitively, {@code *} a wildcard ({@code search *err*} finds a value containing {@code
 * err}), numerically where both are numbers ({@code search 404} finds a {@code status} of 404,
 * {@code search 0.50} a latency of 0.5), any value of a multivalue. A word is not looked for inside
 * a value ({@code search payment} does not find {@code msg="payment failed"}; the phrase {@code
 * "payment failed"} does), nor in the fields' names. Every field the row holds a value in is asked
 * but the internal ones ({@code _time}, {@code _*}: Splunk hides them from a results table; the
 * plugin protocol's row column among them) and the engine's hidden columns. {@code CASE(term)}
 * compares the text case-sensitively, its wildcards too ({@code CASE(sal*)} is not {@code Sale});
 * {@code search *} matches every row.
 *
 * <p>Splunk's reference says only that keywords and phrases are matched against {@code _raw}
 * (Search Manual, "Search command primer": "Splunk software searches the {@code _raw} field for the
 * matching events or results"; Search Reference, search command: "{@code | from main | search 500}"
 * filters the results in memory). For results without {@code _raw} its users' idioms — {@code |
 * inputlookup t | search *word*}, {@code | stats count by host | search web-1} — show the term
 * matched against each field's whole value, wildcards for a part of one; that is the rule here
 * (ARCHITECTURE.md, "Bare words over pages"; kept in session 30 after a second search found no
 * source matching a word inside a value: the Decisions table lists what was searched). A row that
 * has a {@code _raw} is matched on it alone, its fields not asked, as an indexed event is.
 */
final class FieldValueTerm {
  private final SearchValues equality;
  // CASE(term): the whole text compared case-sensitively, a wildcard as a case-sensitive pattern;
  // else null
  private final Predicate<String> caseSensitive;
  private final boolean everyRow;

  FieldValueTerm(SearchTerm term) {
    this.equality = new SearchValues(ComparisonOperator.EQ, term.text());
    this.caseSensitive =
        term.directive() != SearchExpression.Directive.CASE
            ? null
            : term.pattern() != null
                ? Wildcard.caseSensitive(term.text())::matches
                : term.text()::equals;
    this.everyRow = term.matchesEveryEvent();
  }

  /** The columns of {@code page} a term asks: its fields, not internal nor hidden ones. */
  static List<Block> fields(Page page) {
    List<Block> fields = new ArrayList<>();
    for (int c = 0; c < page.schema().size(); c++) {
      String name = page.schema().column(c).name();
      if (!name.startsWith("_") && !name.startsWith("\u0000")) {
        fields.add(page.block(c));
      }
    }
    return fields;
  }

  /** Whether some block of {@code fields} holds the term at {@code position}. */
  boolean matches(List<Block> fields, int position) {
    if (everyRow) {
      return true;
    }
    for (Block block : fields) {
      if (!block.isNull(position) && holds(Values.valuesOf(block, position))) {
        return true;
      }
    }
    return false;
  }

  private boolean holds(List<Object> values) {
    if (caseSensitive == null) {
      return equality.holds(values);
    }
    for (Object value : values) {
      if (caseSensitive.test(Values.toText(value))) {
        return true;
      }
    }
    return false;
  }
}
