package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An event listing followed by {@code join} of named fields (each subsearch column laid over the
 * rows it answers, as the row engine's overlay rows list them: {@code ListedFields} replays it as
 * an {@code eval}; a bare word after it matches the event's own text), and one ending at {@code
 * append}, with only commands after it that keep the rows as they come ({@code index=x | append
 * [search …]}, {@code | append […] | search foo | head 5}) or change their fields as {@code eval},
 * {@code rex}, {@code lookup}, {@code rename}, {@code fields -} do (over the events and the
 * subsearch's rows alike: {@code | append […] | eval x=1}) answers the same rows whatever the page
 * size ({@link EnginePages#samePagedAnyWay}), over a real store of random events: the listing's
 * answer, then the subsearch's rows, through the commands from the append on (computed here for
 * some: {@link #appendedAsComputedHere}); a bare word matches an event's own text and none of the
 * subsearch's rows (they are no events, whatever {@code _raw} they hold).
 */
class ListingSubsearchTest {
  @RegisterExtension
  static final RandomEventStore STORE = new RandomEventStore("listing-subsearch-pw");

  private static final List<String> SEARCHES =
      List.of(
          "* | append [search * | head 3]",
          "* | append [search * | stats count by host]",
          "* | append [search * | head 5] | search WARN",
          "* | append [search * | stats count by host] | search WARN OR h1 | head 2000",
          "* | where n > 2000 | append [search * | head 3 | eval _raw=\"WARN\"] | search WARN"
              + " | sort - n",
          "* | eval k=1 | append [search * | stats count by level] | search INFO k=1",
          "* | lookup regions.csv region OUTPUT label | append [search * | head 2] | dedup label",
          "* | head 10 | append [search * | head 2] | append [search * | stats count] | reverse",
          // the second append's input re-paged: the events' columns first in the pages the
          // subsearch's rows are copied into, which still list their fields in their own order
          "* | where isnotnull(zone) | head 10 | append [search * | head 2 | eval a=1, region=\"x\"]"
              + " | append [search * | stats count] | reverse",
          "* | join host [search * | stats count by host]",
          "* | join host [search * | stats count, max(n) AS n by host] | search WARN | head 700",
          "* | join type=left region [search * | stats count by region] | search INFO",
          "* | join max=2 host [search * | head 4] | where n > 2500",
          "* | join type=left overwrite=false n [search * | where n < 30 | eval x=1, level=\"L\"]"
              + " | search WARN x=1",
          "* | eval k=1 | join host [search * | stats count by host] | eval count=count+k",
          "* | fillnull | join host [search * | stats count by host] | rename count AS c",
          "* | join host [search * | stats count by host] | eventstats sum(count) AS s by level",
          "* | eval _raw=\"WARN\" | join host [search * | stats count by host] | search WARN",
          // commands after the append that change fields: laid over the events and the
          // subsearch's rows alike (a renamed field in its old name's place, a new one last)
          "* | append [search * | head 3] | eval x=1",
          "* | append [search * | stats count by host] | eval x=n*2, host=null()",
          "* | append [search * | stats count by host] | rename host AS h, count AS c",
          "* | append [search * | head 5] | rex \"n=(?<num>\\d+)\"",
          "* | append [search * | stats count by region] | lookup regions.csv region OUTPUT label",
          "* | append [search * | stats count by host] | fields - host",
          "* | eval k=1 | append [search * | stats count by level] | eval k=k+1 | search INFO",
          "* | where n > 2000 | append [search * | head 3 | eval _raw=\"WARN\"] | eval y=1"
              + " | search WARN",
          "* | append [search * | stats count by host] | eval z=1 | sort - count | head 2000",
          "* | rename level AS lvl | append [search * | stats count by level] | rename level AS lv");

  @Test
  void samePagedAnyWay() throws Exception {
    for (String query : SEARCHES) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
      assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("engine", "pages");
    }
  }

  /** The events newest first, then the subsearches' rows, as computed here from their numbers. */
  @Test
  void appendedAsComputedHere() throws Exception {
    int events = RandomEventStore.EVENTS;
    List<String> numbers = new java.util.ArrayList<>();
    for (int n = events - 1; n >= 0; n--) {
      numbers.add(Integer.toString(n));
    }
    numbers.addAll(List.of("" + (events - 1), "" + (events - 2), "" + (events - 3)));
    assertThat(EnginePages.cells(rows("* | append [search * | head 3] | table n"), "n"))
        .isEqualTo(numbers);
    List<String> reversed =
        rows(
            "* | head 10 | append [search * | head 2] | append [search * | stats count] | reverse"
                + " | table n, count");
    assertThat(reversed).hasSize(13);
    assertThat(EnginePages.cells(reversed.subList(0, 1), "count")).containsExactly("" + events);
    List<String> expected = new java.util.ArrayList<>(List.of("2598", "2599"));
    for (int n = events - 10; n < events; n++) {
      expected.add(Integer.toString(n));
    }
    assertThat(EnginePages.cells(reversed, "n")).isEqualTo(expected);
  }

  private static List<String> rows(String query) throws Exception {
    return EnginePages.rows(STORE.server(), query);
  }

  /**
   * {@code join} without fields joins on the fields the input's batch and the subsearch both have:
   * followed by a command fixing the columns it takes the every-field listing, the adapter's
   * batches, as on rows ({@link EveryFieldPlan}), also after commands that change the events'
   * fields (replayed by that listing). Joined with a subsearch's aggregation (its fields named: the
   * join field is the one both have) the same rows whatever the page size; with a subsearch's
   * events the join fields are every field the batch and they both list, which follows the page's
   * rows (the batch is a page), so there only that it runs.
   */
  @Test
  void aJoinWithoutFieldsSamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "* | join [search * | head 3 | eval extra=1] | stats count by extra",
            "* | join [search * | head 3 | eval extra=1] | table n extra",
            "* | join type=left [search * | head 3 | eval extra=1] | stats count by extra",
            "* | search WARN | join [search * | head 40 | eval extra=n] | table n extra",
            "* | join [search * | stats count by host | eval host=host] | stats count AS c by count",
            // after changes: the every-field listing right before it replays them, as the
            // adapter's batches of the changed rows (EveryFieldPlan.joinAfterChanges)
            "* | eval y=1 | join [search * | head 3 | eval extra=1] | table n extra y",
            "* | eval y=n%7 | join [search * | stats count by host] | table n host count y",
            "* | rex \"n=(?<num>\\d)\" | join type=left [search * | stats max(n) AS m by host]"
                + " | table n num host m",
            "* | rename level AS lvl | join [search * | stats count by host] | fields n lvl count",
            "* | lookup regions.csv region OUTPUT label | join type=left [search * | head 40"
                + " | eval extra=n] | table n label extra",
            "* | eval y=n%3 | join [search * | stats count by host] | eval z=count+y"
                + " | table n z")) {
      if (query.contains("head")) {
        EnginePages.rows(STORE.server(), query); // may answer no row
      } else {
        PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
      }
    }
  }

  @Test
  void aSubsearchsListingSamePagedAnyWay() throws Exception {
    // every field of the events, as a subsearch's listing carries them
    for (String query :
        List.of(
            "* | append [search * | head 2] | head 3000", "* | append [search * | stats count]")) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, true, STORE.seed());
    }
  }
}
