package io.quarry.ql.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.exec.EventText;
import io.quarry.ql.exec.RawTermMatcher;
import io.quarry.ql.exec.SearchMatch;
import io.quarry.ql.exec.TestPages;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A bare word or phrase of {@code search} per position of a page that mixes rows with and without
 * {@code _raw} ({@link SearchFilter}, {@link FieldValueTerm}): a row with {@code _raw} is matched
 * in that text alone (its current {@code _raw}; an event's own text only where that is null), a row
 * without either on its fields' whole values. Each expected answer written by hand from the rows
 * below.
 */
class FieldValueTermTest {
  /** A whole token of the text, any case: the test's stand-in for the server's tokenizer. */
  private static final RawTermMatcher TOKENS =
      (raw, term) ->
          term.matchesEveryEvent()
              || Arrays.stream(raw.split("[^A-Za-z0-9-]+"))
                  .anyMatch(token -> token.equalsIgnoreCase(term.text()));

  /**
   * 0: an event whose _raw an eval set to x (its own text "WARN web-1 404" carried apart); 1: an
   * aggregation's row (host web-1, count 404); 2: a row of a multivalue and a decimal; 3: a row
   * whose _raw holds the words but whose own-text column is null (an appended row: its _raw is its
   * text); 4: a row whose only value is internal (_x = web-1).
   */
  private static Page page() {
    List<Map<String, Object>> rows = new ArrayList<>();
    rows.add(row("_raw", "x", EventText.OWN_RAW, "WARN web-1 404", "host", "web-2", "count", null));
    rows.add(row("_raw", null, EventText.OWN_RAW, null, "host", "web-1", "count", 404L));
    rows.add(row("tags", List.of("new", "Sale"), "latency", 0.5, "msg", "payment failed"));
    rows.add(row("_raw", "INFO sale 0.5", EventText.OWN_RAW, null, "host", "web-3"));
    rows.add(row("_x", "web-1"));
    return TestPages.of(rows);
  }

  @Test
  void eachRowByItsOwnRule() {
    Page page = page();
    // row 0's current _raw is x: its own (stored) text is not asked, nor its host
    assertThat(kept(page, "x")).containsExactly(0);
    assertThat(kept(page, "web-1")).containsExactly(1); // 1 by host
    assertThat(kept(page, "404")).containsExactly(1); // count 404 as a number
    assertThat(kept(page, "web-2")).isEmpty(); // row 0 has _raw: its host is not asked
    assertThat(kept(page, "SALE")).containsExactly(2, 3); // a multivalue's value; row 3's _raw
    assertThat(kept(page, "0.50")).containsExactly(2); // a number: 0.5 (row 3's text has "0.5")
    assertThat(kept(page, "sal*")).containsExactly(2); // a wildcard over the whole value
    assertThat(kept(page, "payment")).isEmpty(); // a word inside a value is not the value
    assertThat(kept(page, "\"payment failed\"")).containsExactly(2);
    assertThat(kept(page, "*")).containsExactly(0, 1, 2, 3, 4);
    assertThat(kept(page, "NOT web-1")).containsExactly(0, 2, 3, 4);
    // row 2 holds Sale, compared case-sensitively; row 3's text answers by the matcher's rule
    assertThat(kept(page, "CASE(sale)")).containsExactly(3);
    assertThat(kept(page, "CASE(Sale)")).containsExactly(2, 3);
    assertThat(kept(page, "web-1 count>400")).containsExactly(1);
  }

  /**
   * An event whose _raw an eval set to null ({@code eval _raw=null()}) still carries its own text:
   * a term matches that text (EventText's rule), its fields not asked.
   */
  @Test
  void eventWhoseRawWasSetNullMatchesItsOwnText() {
    List<Map<String, Object>> rows = new ArrayList<>();
    rows.add(row("_raw", "placeholder", EventText.OWN_RAW, "other", "host", "web-2"));
    rows.add(row("_raw", null, EventText.OWN_RAW, "WARN web-1 404", "host", "web-2"));
    Page page = TestPages.of(rows);
    assertThat(kept(page, "web-1")).containsExactly(1); // its own text holds web-1
    assertThat(kept(page, "web-2")).isEmpty(); // an event: its fields are not asked
  }

  /** CASE(term) is case-sensitive, with a wildcard too: "Sale" is not CASE(sal*). */
  @Test
  void caseWithWildcardIsCaseSensitive() {
    List<Map<String, Object>> rows = new ArrayList<>();
    rows.add(row("tag", "Sale"));
    rows.add(row("tag", "sale"));
    Page page = TestPages.of(rows);
    assertThat(kept(page, "CASE(sal*)")).containsExactly(1);
    assertThat(kept(page, "CASE(Sal*)")).containsExactly(0);
  }

  private static List<Integer> kept(Page page, String search) {
    SearchExpression expression = SearchMatch.parse(search);
    int[] positions = new int[page.positionCount()];
    int count = SearchFilter.compile(expression, TOKENS).select(page, positions);
    List<Integer> kept = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      kept.add(positions[i]);
    }
    return kept;
  }

  private static Map<String, Object> row(Object... namesAndValues) {
    Map<String, Object> row = new HashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      row.put((String) namesAndValues[i], namesAndValues[i + 1]);
    }
    return row;
  }
}
