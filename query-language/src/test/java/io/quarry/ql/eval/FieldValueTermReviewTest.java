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

/** Review findings on bare words over rows without {@code _raw} (hand-written answers). */
class FieldValueTermReviewTest {
  private static final RawTermMatcher TOKENS =
      (raw, term) ->
          term.matchesEveryEvent()
              || Arrays.stream(raw.split("[^A-Za-z0-9-]+"))
                  .anyMatch(token -> token.equalsIgnoreCase(term.text()));

  /**
   * An event whose _raw an eval set to null ({@code eval _raw=null()}) still carries its own text:
   * EventText's rule ("a term matches an event's stored raw text, whatever _raw an eval set") says
   * the term matches that text. Before merge fe188144 it did; now the row is asked by its fields.
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
