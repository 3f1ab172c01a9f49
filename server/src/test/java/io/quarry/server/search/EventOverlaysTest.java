package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An event listing with {@code eventstats}/{@code streamstats} results laid over its events ({@link
 * EventOverlays}) answers the same rows — the same columns in the same order, the same types —
 * whatever the page size ({@link EnginePages#samePagedAnyWay}), over a real store of more events
 * than a page, whose events have index-time fields or not (some multivalued), key=value text naming
 * fields other events hold at index time, and JSON objects; rows in no group (a by-field without a
 * value), results without a value (no longer listed), results named as an event's own field, and
 * commands that keep the events before and after.
 */
class EventOverlaysTest {
  @RegisterExtension
  static final RandomEventStore STORE = new RandomEventStore("event-overlays-pw");

  private static final List<String> OVERLAID =
      List.of(
          "* | eventstats count",
          "* | eventstats count by host",
          "* | eventstats count, avg(n) AS avg_n, values(level) AS levels by region",
          "* | eventstats dc(level) AS d, count by team",
          "* | eventstats max(n) AS zone",
          // rows in no group keep the event's own value, search-time included
          "* | eventstats count AS level by region",
          "* | streamstats count AS team by zone | head 2000",
          "* | where n > 100 | eventstats count AS c by zone | where c > 3 | head 1500",
          "region=us | eventstats sum(status) AS st, values(nosuch) AS v",
          "* | sort - n | head 1300 | eventstats min(n) AS low by host, level | dedup 2 low",
          "* | streamstats count",
          "* | streamstats count, sum(n) AS total by region",
          "* | streamstats window=3 avg(n) AS a by host | sort - n | head 1200",
          "* | streamstats current=false last(level) AS prev by host",
          "* | streamstats count AS s by team | eventstats max(s) AS top by host",
          "* | eventstats count AS region_count by region | streamstats dc(region) AS seen",
          "* | streamstats count AS s by team | eventstats max(n) AS top by s",
          // among eval, rex, lookup, rename and fields - (ListedFields), replayed in command order
          "* | eval a=len(_raw) | eventstats avg(a) by host",
          "* | eventstats count by host | eval r=count/2",
          "* | eval h=upper(region) | eventstats count AS c by h | where c > 2 | eval d=c*2",
          "* | rex \"level=(?<lv>\\w+)\" | streamstats count AS s by lv | fields - zone",
          "* | streamstats count AS s by host | lookup regions.csv region OUTPUT label"
              + " | rename team AS t | head 1800",
          "* | eventstats count AS level by region | eval level2=level, n=if(n%2==0, null(), n)",
          "* | fields - region | eventstats count AS c by region | eval x=1",
          "* | eval m=n%3 | streamstats count AS k by m | eval k2=k*2 | eventstats max(k2) AS top",
          // another command sets a result, or a later one a by-field: whether the row fell in a
          // group and whether a result had a value marked after the overlay's stage
          "* | eventstats count by host | eval count=count+1",
          "* | eventstats count by host | eval host=upper(host)",
          "* | eventstats count AS c by region | eval region=if(n%2==0, null(), region)",
          "* | eval c=if(n%3==0, null(), 1) | eventstats count AS c by zone",
          "* | streamstats count AS s by team | eval s=if(n%2==0, null(), s*2) | head 1500",
          "* | eventstats max(n) AS top by zone | rename zone AS z | fields - top | where n > 9",
          "* | eventstats count | streamstats count | head 1300",
          "* | streamstats count AS k by region | lookup regions.csv region OUTPUT zone AS k",
          "* | eventstats count AS c by team | rex \"n=(?<team>\\d)\" | sort - n | head 1100",
          "* | eval c=1 | eventstats count AS c",
          // a result named as a default field or as its own by-field (session 28)
          "* | eventstats count AS host",
          "* | eventstats count AS region by region",
          "* | eventstats values(nosuch) AS source | head 1500",
          "* | streamstats count AS host by host | where n > 30",
          "* | eventstats count AS c by host | eventstats max(c) AS sourcetype by region",
          "* | eval y=1 | eventstats count AS zone by zone | eval k=zone");

  @Test
  void samePagedAnyWay() throws Exception {
    for (String query : OVERLAID) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
    }
  }

  /**
   * Answers computed here from the events as sent ({@code n} the event's number, newest first): an
   * overall count on every event, a running count from the newest, bare words matching the events'
   * own text after a lookup.
   */
  @Test
  void answersComputedFromTheEvents() throws Exception {
    int events = RandomEventStore.EVENTS;
    List<String> rows =
        EnginePages.rows(
            STORE.server(), "* | eventstats count | streamstats count AS k | table n, count, k");
    List<String> numbers = new java.util.ArrayList<>();
    List<String> running = new java.util.ArrayList<>();
    for (int i = 0; i < events; i++) {
      numbers.add(Integer.toString(events - 1 - i));
      running.add(Integer.toString(i + 1));
    }
    assertThat(EnginePages.cells(rows, "n")).isEqualTo(numbers);
    assertThat(EnginePages.cells(rows, "count")).hasSize(events).containsOnly("" + events);
    assertThat(EnginePages.cells(rows, "k")).isEqualTo(running);
    List<String> warned = new java.util.ArrayList<>();
    for (int n = events - 1; n >= 0; n--) {
      if (STORE.texts().get(n).contains("WARN")) {
        warned.add(Integer.toString(n));
      }
    }
    assertThat(
            EnginePages.cells(
                EnginePages.rows(
                    STORE.server(),
                    "* | lookup regions.csv region OUTPUT label | search WARN | table n"),
                "n"))
        .as("seed %d", STORE.seed())
        .isEqualTo(warned);
  }

  /**
   * A {@code search} of bare words after a {@code lookup} over the events: on rows the terms match
   * the event's raw text (the lookup lays its outputs over the event), on pages the {@code _raw}
   * column the lookup left as it was.
   */
  @Test
  void bareWordsAfterALookupMatchTheEventsText() throws Exception {
    for (String query :
        List.of(
            "* | lookup regions.csv region OUTPUT label | search WARN | table n",
            "* | lookup regions.csv region OUTPUT label | search NOT INFO n>100",
            "* | lookup regions.csv region OUTPUT label | search kv1 | stats count by label")) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
      assertThat(explain(query)).as(query).containsEntry("engine", "pages");
    }
  }

  @Test
  void runsAsAListing() throws Exception {
    for (String query : OVERLAID) {
      assertThat(explain(query))
          .as(query)
          .containsEntry("engine", "pages")
          .containsEntry("page_source", "events");
    }
  }

  /**
   * A result named as a default field sets it on every event ({@code count AS host}: the number of
   * events); one named as its own by-field sets it on the events that have it, to their group's
   * count, computed here from the events' values of it (a plain listing), and leaves the others
   * without it.
   */
  @Test
  void resultsNamedAsDefaultOrByFields() throws Exception {
    int events = RandomEventStore.EVENTS;
    List<String> hosts =
        EnginePages.cells(EnginePages.rows(STORE.server(), "* | eventstats count AS host"), "host");
    assertThat(hosts).hasSize(events).containsOnly("" + events);
    // the events' own zones, newest first (an index-time field: the listing's row order too)
    List<String> zones = new java.util.ArrayList<>();
    java.util.Map<String, Integer> counts = new java.util.HashMap<>();
    for (String row : EnginePages.rows(STORE.server(), "* | table n zone")) {
      String zone = cells(row).get("zone");
      zones.add(zone);
      if (zone != null) {
        counts.merge(zone, 1, Integer::sum);
      }
    }
    assertThat(counts).isNotEmpty();
    List<String> counted = EnginePages.rows(STORE.server(), "* | eventstats count AS zone by zone");
    assertThat(counted).hasSize(events).hasSameSizeAs(zones);
    for (int i = 0; i < counted.size(); i++) {
      String zone = zones.get(i);
      assertThat(cells(counted.get(i)).get("zone"))
          .as(counted.get(i))
          .isEqualTo(zone == null ? null : Integer.toString(counts.get(zone)));
    }
  }

  /**
   * A row of {@link EnginePages#rows} as its cells by name (the values as the block wrote them).
   */
  private static java.util.Map<String, String> cells(String row) {
    java.util.Map<String, String> cells = new java.util.HashMap<>();
    for (String cell : row.split("\u0001")) {
      if (!cell.isEmpty()) {
        String values = cell.substring(cell.indexOf('=') + 1);
        cells.put(
            cell.substring(0, cell.indexOf(':')),
            values.startsWith("[") && !values.contains(", ")
                ? values.substring(1, values.length() - 1)
                : values);
      }
    }
    return cells;
  }

  private static java.util.Map<String, Object> explain(String query) {
    return EnginePages.explain(STORE.server(), query);
  }
}
