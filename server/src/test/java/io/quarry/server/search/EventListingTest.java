package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A plain event listing on pages ({@link EventListing}) answers the same rows — the same columns in
 * the same order, the same types — whatever the page size ({@link EnginePages#samePagedAnyWay}),
 * over a real store holding more events than a page, whose events have index-time fields or not (in
 * differing orders, some multivalued), key=value text naming an index-time field of other events
 * (extracted for an event that lacks the field), and JSON objects (typed values); with filters,
 * {@code sort}, {@code head} and {@code dedup} after the listing. The events' numbers ({@code n},
 * one per event, newest highest) give hand-computed answers to some of them ({@link
 * #eventsAsTheyWereSent}); the golden files pin the listing's layout on fixed data.
 */
class EventListingTest {
  @RegisterExtension static final RandomEventStore STORE = new RandomEventStore("event-listing-pw");

  private static final List<String> LISTINGS =
      List.of(
          "*",
          "region=eu",
          "level=WARN",
          "n=12*",
          "* | head 1100",
          "* | head 3",
          "* | where n > 100 AND n < 1500 | head 700",
          "* | search level=INFO n<2000",
          "* | where status=201 OR region=\"us\"",
          // a field name with a wildcard names that field literally (no row has it), as on rows
          "* | search NOT re*=eu | head 1500",
          "* | search re*=eu OR n<100",
          "* | search n<1500 NOT (zone*=z1 OR n*!=1) | sort - n",
          "* | sort n | head 1500",
          "* | sort - _time | head 5",
          "* | sort region, -n",
          "* | dedup region",
          "* | dedup team keepempty=true | head 2000",
          "* | dedup zone, host",
          "region=us OR team=a | sort - n",
          "* | search zone=z1 | dedup 3 host",
          "* | reverse | head 3",
          "* | tail 1500",
          "region=us | reverse",
          // eval and fields - laid over the events as on rows (ListedFields)
          "* | eval x=n*2",
          "* | eval region=if(n%3==0, null(), \"r\".n), big=if(n>1000, n, null()) | head 1500",
          "* | eval z=if(n%2==0, zone, null()) | where n > 50 | sort - n | head 1200",
          "* | fields - region, team",
          "* | fields - zone | eval zone=upper(level) | head 1100",
          "* | eval region=coalesce(region, \"none\") | where n < 1500 | head 300",
          "* | eval m=if(n%2==0, n, \"odd\"), f=n/7 | dedup region",
          "level=WARN | eval team=null(), a=1, a=a+1 | fields - status | sort region",
          // rex: a field set where it matched, the event's own (or its search-time value) where not
          "* | rex \"n=(?<d>\\d)(?<e>\\d)?(?<f>7)?\"",
          "* | rex \"level=(?<region>\\w+)\" | head 1500",
          "* | rex field=level mode=sed \"s/WARN/W/\" | where n > 3",
          "* | rex max_match=3 \"(?<digit>[13579])\" | where n > 10",
          "* | rex \"team=(?<team>\\w+)\" | where n > 5 | fields - zone",
          "* | rex \"(?<lvl>[A-Z]+) n=(?<num>\\d+)( region=(?<zone>\\w+))?\" | sort - n",
          // lookup: its outputs over the rows whose key matched, an empty value none at all
          "* | lookup regions.csv region OUTPUT label, zone",
          "* | lookup regions.csv region OUTPUT label AS level | where n > 40 | head 1800",
          "* | lookup regions.csv region AS team OUTPUT zone AS z | dedup 2 host | fields - region",
          // rename: the old name's value moved to the new one, in its place, where it had one
          "* | rename n AS m",
          "* | rename region AS reg | where n > 5 | head 2000",
          "* | rename zone AS region",
          "* | rename team AS tm, level AS lv | sort - n | head 1500",
          "* | rename status AS code | where code > 200 OR n < 40",
          "* | fields - region | rename zone AS region | dedup region",
          "* | rename region AS r2 | eval y=r2.\"-\".n",
          // one rename naming a field twice: pair by pair, a name renamed away read as it came
          "* | rename region AS r, r AS s | where n > 5",
          "* | rename region AS zone, zone AS z2 | head 1500",
          "* | rename region AS a1, region AS a2",
          "* | rename team AS zone, team AS t2 | sort - n | head 1300",
          "* | rename zone AS region, region AS zone | eval y=zone",
          // a name renamed on, or an old name whose new name a later pair gives again, read
          // later: no value (Splunk renames pair by pair), not the event's own
          "* | rename region AS zone, zone AS z | eval y=zone, w=region | where n > 3",
          "* | rename level AS r, r AS s | eval y=r.\"-\".s",
          "* | rename region AS t, zone AS t | eval y=region | sort - n | head 1500",
          // one new name twice: the later pair's value where its old name has one
          "* | rename region AS r, zone AS r",
          "* | rename zone AS team, region AS team | where n > 5 | head 1500",
          "* | rename region AS z, team AS z, level AS z | eval y=z",
          "* | rename n AS host, region AS host | sort - status | head 1200",
          // a rex or lookup output a later command reads: the event's own value where not set
          "* | rex \"n=(?<d>\\d)\" | where d > 1",
          "* | where region=\"us\" | rex \"level=(?<region>\\w+)\"",
          "* | rex \"level=(?<region>\\w+)\" | where region=\"WARN\" OR n < 300 | sort region",
          "* | lookup regions.csv region OUTPUT label | eval l2=label.\"!\"",
          "* | lookup regions.csv region OUTPUT zone | where isnull(zone) OR n > 2000",
          // OUTPUTNEW: only the outputs a row has no value of; no OUTPUT: every other column
          "* | lookup regions.csv region OUTPUTNEW label, zone",
          "* | lookup regions.csv region OUTPUTNEW zone AS level | head 2100",
          "* | lookup regions.csv region",
          "* | lookup regions.csv region AS team | where n > 100 | fields - zone",
          // a field two commands set: where the first left it a value decides its place
          "* | eval x=1 | eval x=if(n%2==0, null(), 2)",
          "* | eval x=if(n%3==0, null(), 1), y=2 | eval x=3 | head 1500",
          "* | rex \"level=(?<lvl>\\w+)\" | eval lvl=if(n%5==0, null(), lower(lvl))",
          "* | lookup regions.csv region OUTPUT zone | eval zone=coalesce(zone, \"none\")",
          "* | eval zone=if(n%2==0, \"even\", null()) | lookup regions.csv region OUTPUTNEW zone",
          "* | eval a=n | rename a AS b | rename region AS a | where n > 7",
          "* | rename zone AS z | eval z=if(n%4==0, null(), z) | lookup regions.csv region OUTPUT zone AS z",
          // a default field changed (not _raw, sourcetype or _time)
          "* | eval host=upper(host)",
          "* | eval host=if(n%2==0, null(), host), source=\"s\" | sort - n",
          "* | rename host AS h | where n > 5",
          "* | fields - host, index | head 1200",
          "* | rename region AS host",
          "* | lookup regions.csv region OUTPUT label AS index",
          // _raw or sourcetype changed: the extraction still reads the event's own
          "* | eval _raw=upper(_raw)",
          "* | rename _raw AS text | where n > 3",
          "* | eval sourcetype=if(n%2==0, \"other\", null()), _raw=\"x\" | sort - n | head 900",
          "* | eval _time=_time+3600 | head 1500",
          "* | eval _time=if(n%3==0, null(), _time+n/10)",
          "* | rename _time AS t | where n > 2",
          "* | rename n AS _time",
          "* | rename n AS _time | rename _time AS t2 | head 2200",
          // bin with a span: its as-field set where the field has a value
          "* | bin _time span=1m",
          "* | bin n span=100 AS nb | where n > 4",
          "* | bin status span=2 | eval s=status",
          "* | eval b=if(n%2==0, n, null()) | bin b span=10 | sort - n");

  @Test
  void samePagedAnyWay() throws Exception {
    for (String query : LISTINGS) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
    }
  }

  /**
   * The events come back as they were sent: newest first, each once ({@code n} is the event's
   * number, its time the base plus {@code n} seconds), the filters and orders choosing the numbers
   * computed here.
   */
  @Test
  void eventsAsTheyWereSent() throws Exception {
    int events = RandomEventStore.EVENTS;
    assertThat(numbers("*")).isEqualTo(range(events - 1, -1));
    assertThat(numbers("* | head 3")).isEqualTo(range(events - 1, events - 4));
    assertThat(numbers("* | where n > 100 AND n < 1500 | head 700")).isEqualTo(range(1499, 799));
    assertThat(numbers("* | sort n | head 1500")).isEqualTo(range(0, 1500));
    assertThat(numbers("* | sort - _time | head 5")).isEqualTo(range(events - 1, events - 6));
    assertThat(numbers("* | reverse | head 3")).isEqualTo(range(0, 3));
    assertThat(numbers("* | eval x=n*2 | where x > 5000")).isEqualTo(range(events - 1, 2500));
    assertThat(numbers("* | rename n AS m | where m < 5 | rename m AS n")).isEqualTo(range(4, -1));
  }

  /**
   * The {@code n} of each row of a search's answer, in order (a search-time field: a {@code table}
   * after the search lists it for every row).
   */
  private static List<Integer> numbers(String query) throws Exception {
    return EnginePages.cells(EnginePages.rows(STORE.server(), query + " | table n"), "n").stream()
        .map(Integer::valueOf)
        .toList();
  }

  /** The numbers from {@code from} towards {@code to} (exclusive), up or down. */
  private static List<Integer> range(int from, int to) {
    return from <= to
        ? java.util.stream.IntStream.range(from, to).boxed().toList()
        : java.util.stream.IntStream.iterate(from, i -> i > to, i -> i - 1).boxed().toList();
  }

  @Test
  void runsWithoutRows() throws Exception {
    for (String query : LISTINGS) {
      assertThat(explain(query))
          .as(query)
          .containsEntry("engine", "pages")
          .containsEntry("page_source", "events");
      assertThat(pages(query)).as(query).isNotEmpty();
    }
    // commands that read every field take the every-field listing; a plain listing does not
    assertThat(explain("* | where n > 5 | table n, re*"))
        .containsEntry("engine", "pages")
        .containsEntry("page_source", "every_field");
    assertThat(explain("* | where n > 5")).containsEntry("page_source", "events");
    assertThat(explain("* | fillnull | stats count by region"))
        .containsEntry("page_source", "every_field");
    // a wildcard rename ending a listing renames every field an event has, extracted ones too:
    // the every-field listing; followed by other commands that do not fix the columns, on rows
    assertThat(explain("* | rename re* AS x*"))
        .containsEntry("engine", "pages")
        .containsEntry("page_source", "every_field");
    // followed by other commands, or after eval, rex, lookup: the renamed every-field pages with
    // each row's renamed names, the later commands replayed over them (RenameOverEvents)
    for (String query : RENAMED_BY_WILDCARD) {
      assertThat(explain(query))
          .as(query)
          .containsEntry("engine", "pages")
          .containsEntry("page_source", "every_field");
    }
    // a name renamed on (b in a AS b, b AS c) or an old name whose new name a later pair gives
    // again (a in a AS c, b AS c) has no value after the rename, on rows as on pages: a later
    // command reading it runs on pages
    assertThat(explain("* | rename a AS b, b AS c | eval x=b")).containsEntry("engine", "pages");
    assertThat(explain("* | rename a AS c, b AS c | where a > 1")).containsEntry("engine", "pages");
  }

  /**
   * Every field of the events (the every-field mode): a subsearch's listing, whose rows carry their
   * search-time fields ({@link SearchControl#everyEventField}), and the commands that read every
   * field or name fields by a wildcard after a listing — the same rows whatever the page size, over
   * more events than a page (the 1,024-row batches of results decide what {@code fillnull} fills:
   * the columns they hold, as Splunk's result batches).
   */
  @Test
  void everyFieldSamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "*",
            "* | where n > 100 | head 1500",
            "* | sort region, -n | dedup 2 host",
            "* | eval region=if(n%2==0, null(), \"e\"), x=1 | fields - zone",
            "* | rex \"level=(?<region>\\w+)\" | where region=\"WARN\" OR n < 500",
            "* | lookup regions.csv region OUTPUTNEW label, zone")) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, true, STORE.seed());
    }
    // a renamed row keeps every other field, extracted ones too (Splunk's rename)
    for (String renamed :
        List.of(
            "* | rename region AS r | where n > 10",
            "* | eval x=1 | rename level AS lv | eval y=lv",
            "* | rename region AS zone, zone AS z | where n > 10")) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), renamed, true, STORE.seed());
    }
    for (String query :
        List.of(
            "* | fields *",
            "* | table n, re*, t*",
            "* | head 5 | table *",
            "* | fillnull value=X | table n, region, team, zone, status, level",
            "* | where n > 1000 | fillnull value=0 | table n, region, zone, status",
            "* | dedup region | transpose 3 | table column, \"row 1\", \"row 3\"",
            "* | format maxresults=3",
            "* | stats avg(*), dc(region) AS regions by host",
            // a wildcard rename ending a listing renames every field an event has, extracted
            // ones too: the row lists them all
            "* | rename re* AS x*",
            "* | where n > 100 | head 1500 | rename *l AS *L, n AS num",
            "* | sort - n | dedup region | rename z* AS Z*, t* AS T*",
            "* | head 1050 | rename n* AS m*")) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
    }
  }

  /**
   * A wildcard {@code rename} (every field an event has, extracted ones too) followed by other
   * commands, or after commands that change fields: on rows each renamed row lists every field it
   * has under its new name, and the later commands work on those rows.
   */
  private static final List<String> RENAMED_BY_WILDCARD =
      List.of(
          "* | rename re* AS x* | head 5",
          "* | rename re* AS x* | eval y=1",
          "* | rename re* AS x* | where n > 100 | head 1500",
          "* | rename z* AS Z*, t* AS T* | sort - n | head 1200",
          "* | rename re* AS x*, level AS lv | eval y=xgion.\"-\".lv | fields - zone",
          "* | rename *l AS *L | search WARN n>10 | head 2000",
          "* | rename re* AS x* | rex \"n=(?<d>\\d)\" | where d > 1",
          "* | rename re* AS x* | lookup regions.csv region AS xgion OUTPUT label | dedup 2 host",
          "* | rename re* AS x* | eventstats count by xgion",
          "* | rename *ne AS *NE | rename zone AS region | head 1100",
          "* | sort - n | rename t* AS T* | dedup Team | eval team=1",
          // after commands that change fields: each row's every field as they leave them
          "* | eval a_ip=1 | rename *_ip AS ip_*",
          "* | eval x_a=n, region=if(n%2==0, null(), region) | rename x_* AS y_* | head 7",
          "* | eval region=if(n%2==0, null(), region) | rename re* AS x* | head 1300",
          "* | rex \"level=(?<lv_x>\\w+)\" | rename lv_* AS L_* | where n > 3",
          "* | fields - zone | rename z* AS Z* | eval zone=1",
          "* | lookup regions.csv region OUTPUT label | rename la* AS LA* | head 2000",
          "* | where n > 40 | eval t_x=n*2 | rename t* AS u* | sort - n",
          // after a literal rename (its row keeps every other field) or a change of _raw (the
          // listing extracts from the events' own text, as the row asks its event)
          "* | rename level AS lvl | rename re* AS x* | where n > 5",
          "* | rename region AS zone, zone AS z | rename z* AS Z* | head 1500",
          "* | eval _raw=upper(_raw) | rename re* AS x* | head 1100",
          "* | eval _raw=upper(_raw) | rename le* AS x* | search WARN",
          // matching _raw (a later bare word then matches no row: no _raw left, since session 27
          // on rows too) or _time (renamed in epoch seconds); a run of renames after it
          "* | rename _r* AS x_* | head 5",
          "* | rename *raw AS t* | search WARN",
          "* | rename l* AS m* | search WARN | head 900",
          "* | rename * AS f_* | head 1100",
          "* | rename _t* AS t* | where n > 5",
          "* | rename re* AS x* | rename x* AS y* | rename level AS lv | head 1500",
          "* | rename *aw AS *x | where n > 5",
          "* | rename level AS lvl | rename _r* AS x_* | sort - n | head 1200",
          // a wildcard table or fields right after it: the renamed pages' columns holding values
          "* | rename re* AS x* | table *",
          "* | where n > 5 | rename *one AS *1 | table * | head 30",
          "* | rename _r* AS x_* | table *");

  @Test
  void wildcardRenameAmongCommandsSamePagedAnyWay() throws Exception {
    for (String query : RENAMED_BY_WILDCARD) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
    }
    // as a subsearch's events: a renamed row's every field is the names it lists
    for (String query :
        List.of(
            "* | rename re* AS x* | head 5", "* | eval a_x=n | rename a_* AS b_* | head 1100")) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, true, STORE.seed());
    }
    // a wildcard that renames _raw away: a later bare word finds no _raw, on pages as on rows
    assertThat(explain("* | rename *raw AS t* | search WARN")).containsEntry("engine", "pages");
    // followed by a wildcard table: the renamed every-field pages' columns (EveryFieldPlan)
    assertThat(explain("* | rename re* AS x* | table x*")).containsEntry("engine", "pages");
  }

  /** The pages of a search's answer, written out: each page's columns and types, then its rows. */
  private static List<String> pages(String query) throws Exception {
    return EnginePages.pages(STORE.server(), query, false);
  }

  private static java.util.Map<String, Object> explain(String query) {
    return EnginePages.explain(STORE.server(), query);
  }
}
