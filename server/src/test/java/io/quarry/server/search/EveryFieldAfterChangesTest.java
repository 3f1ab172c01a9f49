package io.quarry.server.search;

import java.util.List;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code transaction} and a wildcard {@code table}/{@code fields} — commands that read every field
 * of the rows they take — after commands that change the events' fields ({@code eval}, {@code rex},
 * {@code lookup}, a literal {@code rename}, {@code fields -}, {@code eventstats}, plugin commands
 * such as {@code fillnull} and {@code mvexpand}, then {@code eventstats}/{@code streamstats},
 * {@code rex}, {@code lookup} after them; a wildcard {@code rename} among them, which renames every
 * field a row can yield) run on pages and answer the same rows whatever the page size: the
 * every-field listing lays out the changed rows (their search-time fields too, the changes replayed
 * by {@link ListedFields}) right before the first plugin command or the command itself ({@link
 * EveryFieldPlan#pluginAfterChanges}). The golden files pin the layout on fixed data.
 */
class EveryFieldAfterChangesTest {
  @RegisterExtension
  static final RandomEventStore STORE = new RandomEventStore("every-field-after-changes-pw");

  /**
   * {@code transaction} after changes: each result's fields in name order (between {@code _raw} and
   * {@code duration}), whatever order its events list them in (a row: default, index-time, then
   * extracted fields; a page: one column order for all its positions), since session 25; a field an
   * {@code eval} after it sets listed after the results' columns, as Splunk adds a field after a
   * table's.
   */
  private static final List<String> TRANSACTIONS =
      List.of(
          "* | rex \"level=(?<lvl>\\w+)\" | transaction host maxevents=20",
          "* | eval y=n*2 | lookup regions.csv region OUTPUT label | transaction host",
          "* | mvexpand team | transaction host",
          "* | eval y=n*2 | transaction host maxevents=20",
          "* | rex \"team=(?<t>\\w+)\" | transaction t maxevents=5 | eval k=1",
          "level=INFO | eventstats count AS c by host | transaction host maxevents=10",
          "* | fillnull value=0 | transaction host maxevents=30 | search h1",
          "* | fillnull value=none region zone | sort region, -n | transaction host maxevents=20",
          // a literal rename: its row keeps every other field, extracted ones too (Splunk's
          // rename)
          "* | bin _time span=5m | rename level AS lvl | transaction host maxevents=20",
          "level=INFO | rename level AS lvl | dedup region keepempty=true"
              + " | transaction host maxevents=20",
          "* | rename region AS reg, zone AS z | rename level AS lvl"
              + " | eval region=if(n%3==0, null(), region) | transaction host maxevents=20",
          "* | search level=WARN | eventstats count AS c by host | rename region AS reg, zone AS z"
              + " | transaction host maxevents=20",
          "* | rename region AS zone, zone AS z | transaction host maxevents=20",
          // eventstats/streamstats between the plugin command and transaction (the census's)
          "level=INFO | fillnull value=0 | eventstats count AS c by host | eval _raw=upper(_raw)"
              + " | transaction host maxevents=20",
          "* | mvexpand team | streamstats count AS k by team | transaction host maxevents=20",
          // a literal rename or a bin between the plugin command and transaction (the census's)
          "* | head 700 | mvexpand team | rename region AS reg, zone AS z"
              + " | transaction host maxevents=20",
          "* | reverse | fillnull value=none region zone | bin _time span=5m"
              + " | transaction host maxevents=20 | rename host AS h",
          // a lookup or a rex between the plugin command and transaction (the census's, seed 13)
          "* | fillnull value=none region zone | lookup regions.csv region OUTPUT label"
              + " | rename level AS lvl | transaction host maxevents=20",
          "* | fillnull value=none region zone | lookup regions.csv region"
              + " | transaction host maxevents=20",
          "* | mvexpand team | rex \"level=(?<lvl>\\w+)\" | transaction host maxevents=20",
          // a wildcard rename after changes: it renames every field the row can yield
          "* | eval y=1 | rename re* AS x* | transaction host maxevents=20",
          "* | rex \"n=(?<num>\\d+)\" | rename n* AS m* | transaction host maxevents=20",
          "* | mvexpand team | rename t* AS x* | transaction host maxevents=20");

  /**
   * A wildcard {@code table} or {@code fields} after changes (where the pages part aside: a page
   * cut by {@code head} keeps the columns of the rows past the cut, null in the rows it keeps).
   */
  private static final List<String> TABLES =
      List.of(
          "* | fields - zone | table *",
          "* | lookup regions.csv region OUTPUTNEW zone | table *",
          "level=INFO | eventstats count AS c by host | table *",
          "* | fillnull value=none region zone | table *",
          "* | where isnotnull(region) OR n < 200 | fillnull value=none region zone | table *",
          "* | eval y=n*2 | table *",
          "* | rex \"n=(?<num>\\d+)\" | where n > 100 | table * | head 40",
          "* | eval region=if(n%3==0, null(), region) | fields *",
          "* | eval y=1 | table host, *",
          "* | mvexpand team | table * | head 3",
          // a literal rename before them: every other field of the row stays
          "* | rename region AS reg, zone AS z | fillnull value=0 | table * | fields - host",
          "level=INFO | rename level AS lvl | rex \"level=(?<lvl>\\w+)\" | eval _raw=upper(_raw)"
              + " | table *",
          "* | rename level AS lvl | table *",
          "* | rename region AS reg | where n > 100 | fields *",
          "* | eval y=n*2 | rename n AS m, y AS n | table * | head 50",
          "level=INFO | fillnull value=0 | streamstats count AS k | table *",
          "* | eval y=1 | fillnull value=0 | eventstats max(n) AS top by level | table *",
          // a rex or lookup between a plugin command and table *
          "* | fillnull value=0 | rex \"n=(?<num>\\d+)\" | table *",
          // a wildcard rename after eval, rex, lookup or a literal rename, or before eval or head:
          // on rows it renames every field the row can yield, search-time ones too
          "* | eval y=1 | rename re* AS x* | table *",
          "* | rex \"n=(?<num>\\d+)\" | rename re* AS x* | table *",
          "* | lookup regions.csv region OUTPUT label | rename re* AS x* | table *",
          "* | rename level AS lvl | rename re* AS x* | table *",
          "* | eval region=if(n%3==0, null(), region) | rename re* AS x* | fields *",
          "* | rename re* AS x* | eval y=1 | table *",
          "* | rename re* AS x* | head 40 | table *",
          "* | fillnull value=0 | rename re* AS x* | table *");

  @Test
  void transactionAfterChangesSamePagedAnyWay() throws Exception {
    assertSamePagedAnyWay(TRANSACTIONS);
  }

  @Test
  void wildcardTableAfterChangesSamePagedAnyWay() throws Exception {
    assertSamePagedAnyWay(TABLES);
  }

  /** A {@code fillnull} without a field list (it fills every field its batch lists). */
  private static final java.util.regex.Pattern FILLS_EVERY_FIELD =
      java.util.regex.Pattern.compile("fillnull value=\\S+ \\|");

  /**
   * Each query runs on pages (the explain says so) and answers the same rows in the same order,
   * each with the same cells in the same column order, whatever the page size ({@link
   * EnginePages#samePagedAnyWay}).
   */
  private static void assertSamePagedAnyWay(List<String> queries) throws Exception {
    SoftAssertions softly = new SoftAssertions();
    for (String query : queries) {
      softly
          .assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("engine", "pages");
      try {
        if (FILLS_EVERY_FIELD.matcher(query).find()) {
          // fillnull without fields fills the fields its batch lists, and the batch is a page:
          // which it fills follows the page's rows, so only that it runs
          EnginePages.rows(STORE.server(), query);
        } else {
          PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
        }
      } catch (AssertionError | RuntimeException failed) {
        softly.fail(query, failed);
      }
    }
    softly.assertAll();
  }
}
