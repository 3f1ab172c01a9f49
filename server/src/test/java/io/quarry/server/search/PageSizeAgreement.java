package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import java.util.List;
import java.util.Random;

/**
 * The property the event-listing tests hold the page engine to where no second engine answers: a
 * search's rows are the same whatever the page size ({@link #samePagedAnyWay}), as far as an
 * answer's layout does not follow the rows a page holds ({@link #disagreement}), a number the same
 * whether a page typed it whole or decimal ({@link #sameValues}).
 */
final class PageSizeAgreement {
  private PageSizeAgreement() {}

  /**
   * The rows of a search's answer on the page engine (the row engine refused), checked to agree
   * ({@link #disagreement}) with its rows in pages of a few rows and of a few hundred against pages
   * of 1,024 (the default): page boundaries fall elsewhere in each, so a stage that carries state
   * from page to page (a dedup's seen values, an overlay's groups, a plugin command's batches, a
   * listing's replayed changes) must carry it right. This is the property these tests hold the page
   * engine to where no second engine answers: the sizes are drawn from the query and {@code seed},
   * and named in a failure's message.
   */
  static List<String> samePagedAnyWay(
      QuarryServer server, String query, boolean everyEventField, long seed) throws Exception {
    List<String> whole = EnginePages.rows(server, query, everyEventField, SearchService.PAGE_SIZE);
    Random sizes = new Random(seed ^ query.hashCode());
    for (int pageSize : new int[] {1 + sizes.nextInt(7), 8 + sizes.nextInt(400)}) {
      List<String> paged = EnginePages.rows(server, query, everyEventField, pageSize);
      if (readsTheBatch(query)) {
        continue; // it runs paged so too; what it answers follows the page's rows
      }
      String disagreement = disagreement(query, whole, paged);
      assertThat(disagreement)
          .as(
              "%s%s in pages of %d rows against pages of %d (events seed %d)",
              query,
              everyEventField ? " (every event field)" : "",
              pageSize,
              SearchService.PAGE_SIZE,
              seed)
          .isNull();
    }
    return whole;
  }

  /**
   * Whether a search has a command that reads every field its batch lists — the batch being a page
   * — and makes values of them: {@code foreach *}, {@code transpose}, {@code format}, {@code join}
   * without fields. Over an event listing, which search-time fields a page lists follows the events
   * it holds, so such an answer moves with the page boundaries (a known gap, session 27): {@link
   * #samePagedAnyWay} runs it paged otherwise without comparing. Not {@code fillnull} without
   * fields since session 39: it fills the fields of its whole input and names those it wrote on
   * every row ({@code PluginListingPageCutTest}).
   */
  static boolean readsTheBatch(String query) {
    return READS_THE_BATCH.matcher(query).find();
  }

  private static final java.util.regex.Pattern READS_THE_BATCH =
      java.util.regex.Pattern.compile(
          "foreach \\*|\\| transpose|\\| format" + "|\\| join (?:type=\\w+ )?\\[");

  /**
   * Where two answers of one search in pages of different sizes ({@link EnginePages#rows})
   * disagree, null where they agree: the same number of rows, and row by row the same fields, each
   * with the same value. Not more, because some of an answer's layout follows the rows a page
   * holds, so it moves with the page boundaries: a page's column order and a column's type (the
   * first-seen order of its fields; a text column where another value of it is text — issue 21's
   * one type per result column is still open). Which fields a row lists does not (issue 21: a plain
   * listing lists a row's own fields, never one another row of its page made a column of). The
   * golden files and the hand-computed answers pin the layout at the default size.
   */
  static String disagreement(List<String> whole, List<String> paged) {
    return disagreement(whole, paged, true);
  }

  /**
   * As {@link #disagreement(List, List)} for the answers of {@code query}: every search's rows
   * compared with their fields since session 39 (an event among an {@code append}'s rows lists what
   * it lists alone, {@code AppendListingPageCutTest}; a plugin command rewriting fields in place
   * names what it wrote on every row, {@code PluginListingPageCutTest}).
   */
  static String disagreement(String query, List<String> whole, List<String> paged) {
    return disagreement(whole, paged, true);
  }

  private static String disagreement(List<String> whole, List<String> paged, boolean fields) {
    if (whole.size() != paged.size()) {
      return "%d rows against %d".formatted(whole.size(), paged.size());
    }
    for (int r = 0; r < whole.size(); r++) {
      java.util.Map<String, String> one = EnginePages.cellsOf(whole.get(r));
      java.util.Map<String, String> other = EnginePages.cellsOf(paged.get(r));
      if (fields && !one.keySet().equals(other.keySet())) {
        return "row %d: fields %s against %s%n  %s%n  %s"
            .formatted(r, one.keySet(), other.keySet(), whole.get(r), paged.get(r));
      }
      for (var cell : one.entrySet()) {
        String value = other.get(cell.getKey());
        if (value != null && !sameValues(value, cell.getValue())) {
          return "row %d: %s=%s against %s%n  %s%n  %s"
              .formatted(r, cell.getKey(), cell.getValue(), value, whole.get(r), paged.get(r));
        }
      }
    }
    return null;
  }

  /**
   * Whether two cells' values ({@code [a, b]}) are the same, a number the same whether a page typed
   * it whole or decimal ({@code 432} and {@code 432.0}: a column's type follows its page's values).
   */
  static boolean sameValues(String one, String other) {
    if (one.equals(other)) {
      return true;
    }
    String[] these = one.substring(1, one.length() - 1).split(", ", -1);
    String[] those = other.substring(1, other.length() - 1).split(", ", -1);
    if (these.length != those.length) {
      return false;
    }
    for (int i = 0; i < these.length; i++) {
      if (!these[i].equals(those[i]) && !sameNumber(these[i], those[i])) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameNumber(String one, String other) {
    try {
      return Double.parseDouble(one) == Double.parseDouble(other);
    } catch (NumberFormatException notNumbers) {
      return false;
    }
  }
}
