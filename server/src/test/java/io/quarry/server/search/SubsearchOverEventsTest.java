package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An event listing through {@code append} or {@code join} without fields where no command fixes the
 * answer's columns after them, among plugin commands and other changes ({@link PluginOverEvents}:
 * {@code join}'s rows its input rows with the subsearch's columns laid over them, {@code append}'s
 * subsearch rows rows of their own) runs on pages and answers the same in pages of any size, over a
 * real store of random events ({@link EnginePages#samePagedAnyWay}); and answers facts computed
 * from the events: the row count, and each joined row's {@code count} the number of rows of its
 * host. An {@code append} before plugin commands with a command fixing the columns after them
 * ({@code | append […] | fillnull | stats …}) takes the every-field listing right before the {@code
 * append} ({@link EveryFieldPlan}).
 */
class SubsearchOverEventsTest {
  @RegisterExtension
  static final RandomEventStore STORE = new RandomEventStore("subsearch-over-events-pw");

  private static final List<String> SEARCHES =
      List.of(
          // join without fields ending a listing: the overlay rows, as the adapter lists them
          "* | join [search * | stats count by host]",
          "* | join type=left [search * | head 40 | eval extra=n]",
          // max=2 without fields: a row's join fields are the subsearch's columns it or a row
          // before it has a value of (JoinFields; not the page's: the answer must not hang on
          // where the pages part)
          "* | join max=2 [search * | head 40 | eval extra=n]",
          "* | where n > 100 | join [search * | stats count by host] | eval c=count*2",
          "* | join [search * | stats count by host] | search WARN",
          "* | eval y=1 | join [search * | stats count by host]",
          "level=INFO | join [search * | stats count by host] | head 300",
          // join without fields before table * after changes (EveryFieldPlan's every-field
          // listing right before the join)
          "* | eval y=1 | join [search * | stats count by host] | table *",
          "* | rex \"n=(?<num>\\d+)\" | join type=left [search * | stats max(n) AS m by host]"
              + " | table *",
          "* | eval y=1 | join [search * | stats count by host] | eval z=1 | table *",
          // a second append after changes
          "* | eval y=1 | append [search * | head 3] | eval z=1 | append [search * | head 2]",
          "* | append [search * | head 3] | eval z=1 | append [search * | head 2]",
          // plugin commands after append
          "* | append [search * | head 3] | fillnull value=0",
          "* | append [search * | head 3] | mvexpand team",
          "* | append [search * | head 3] | convert num(n) AS nn",
          "* | append [search * | stats count by host] | fillnull value=0 | search WARN",
          // plugin commands before append
          "* | fillnull value=0 | append [search * | head 3]",
          "* | fillnull value=none region zone | append [search * | head 3] | eval x=1",
          "* | mvexpand team | append [search * | head 3]",
          // join and append with plugin commands and each other
          "* | fillnull | join [search * | head 3 | eval extra=1]",
          "* | join [search * | stats count by host] | fillnull value=0",
          "* | join [search * | stats count by host] | append [search * | head 2]",
          // append before plugin commands, a later command fixing the columns (or transaction):
          // the every-field listing right before the append (EveryFieldPlan)
          "* | append [search * | head 3] | where n % 2 == 0 | convert num(n) AS nn"
              + " | transaction host maxevents=20 | search h1",
          "* | append [search * | stats count by host] | mvexpand team"
              + " | transaction host maxevents=20",
          "* | eval y=1 | append [search * | head 3] | fillnull value=0 | table *",
          "* | append [search * | head 3] | fillnull value=0 | stats count by n",
          "* | eval y=1 | append [search * | head 3] | fillnull value=0 | stats count by y",
          "* | append [search * | head 3] | where n > 5 | fillnull value=none"
              + " | table n, region, zone",
          "* | append [search * | stats count by host] | fillnull value=0"
              + " | stats sum(count) AS s by host",
          "* | append [search * | head 3] | mvexpand team | fillnull value=X | table n, team",
          "* | join [search * | stats count by host] | fillnull value=0 | table *",
          // eventstats, streamstats, bin, plugin commands between the append and a command
          // reading every field; join without fields after an append, the columns fixed after it
          "level=INFO | append [search * | head 3] | eventstats count AS c by host"
              + " | fillnull value=0 | rare host",
          "level=INFO | append [search * | head 3] | join [search * | stats count by host]"
              + " | rare host | sort - count",
          "* | append [search * | head 3] | join type=left [search * | head 40 | eval extra=n]"
              + " | search n<1500 | stats count by host",
          "* | lookup regions.csv region OUTPUTNEW zone | append [search * | head 3]"
              + " | rename level AS lvl | transaction host maxevents=20",
          "* | convert num(n) AS nn | append [search * | head 3] | convert num(n) AS nn"
              + " | transaction host maxevents=20 | eval z=1",
          "* | append [search * | head 3] | streamstats count AS k by host"
              + " | join [search * | stats count by host] | table n, k, count",
          "* | eval y=1 | append [search * | head 3] | bin _time span=5m | fillnull value=0"
              + " | stats count by _time, y");

  @Test
  void theSameAnswerPagedAnyWay() throws Exception {
    for (String query : SEARCHES) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
      assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("engine", "pages");
    }
  }

  /** Every event joins its host's row: each row's count is the number of rows of its host. */
  @Test
  void eachJoinedRowCountsItsHost() throws Exception {
    Map<String, Integer> rowsByHost = new HashMap<>();
    Map<String, String> countByHost = new HashMap<>();
    int[] rows = {0};
    EnginePages.run(
        STORE.server(),
        "* | join [search * | stats count by host]",
        false,
        page -> {
          for (int p = 0; p < page.positionCount(); p++) {
            String host = String.valueOf(page.block("host").getValues(p));
            String count = String.valueOf(page.block("count").getValues(p));
            rowsByHost.merge(host, 1, Integer::sum);
            assertThat(countByHost.putIfAbsent(host, count)).isIn(null, count);
            rows[0]++;
          }
        });
    assertThat(rows[0]).isEqualTo(RandomEventStore.EVENTS);
    rowsByHost.forEach(
        (host, n) -> assertThat(countByHost.get(host)).as(host).isEqualTo("[" + n + "]"));
  }

  /** An append adds its subsearch's rows after the events, whatever plugin command comes first. */
  @Test
  void appendAddsItsRows() throws Exception {
    for (String query :
        List.of(
            "* | fillnull value=0 | append [search * | head 3]",
            "* | append [search * | head 3] | fillnull value=0",
            "* | eval y=1 | append [search * | head 3] | eval z=1 | append [search * | head 2]")) {
      int expected = RandomEventStore.EVENTS + (query.contains("head 2") ? 5 : 3);
      assertThat(EnginePages.rows(STORE.server(), query)).as(query).hasSize(expected);
    }
  }
}
