package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code search} of bare words in an event listing after commands that change {@code _raw} but
 * keep the rows events ({@code eval _raw=…}, {@code rename x AS _raw}, {@code rex mode=sed}, a
 * {@code lookup} without {@code OUTPUT}) matches the terms against the event's own text the listing
 * carries ({@link io.quarry.ql.exec.EventText#OWN_RAW}), whatever {@code _raw} the row holds — as
 * Splunk's events answer bare words from their text —, over a real store of random events ({@link
 * EnginePages}): the events found computed here from their texts ({@link #matchesTheEventsText}),
 * and the same rows whatever the page size.
 */
class OwnTextSearchTest {
  @RegisterExtension
  static final RandomEventStore STORE = new RandomEventStore("own-text-search-pw");

  private static final List<String> SEARCHES =
      List.of(
          "* | eval _raw=\"x\" | search WARN",
          "* | eval _raw=upper(_raw) | search INFO n>2000",
          "* | eval _raw=null() | search WARN | head 30",
          "* | rename level AS _raw | search WARN",
          "* | rex field=_raw mode=sed \"s/WARN/W/\" | search WARN",
          "* | lookup regions.csv region | search eu OR kv1",
          "* | where n > 5 | eval _raw=\"r\" . n | search \"level=WARN\" | eval k=1",
          // a leading rex the source would run itself is a stage of the listing here
          "* | rex \"n=(?<num>\\d+)\" | eval _raw=\"x\" | search WARN",
          "* | rex \"level=(?<lv>\\w+)\" | eval _raw=lv | search INFO n>3 | eval k=lv",
          // table * keeps the own text with _raw (refused before session 30)
          "* | eval _raw=\"x\" | dedup host | table * | search WARN",
          "* | eval _raw=upper(_raw) | dedup level | table * | search warn");

  @Test
  void samePagedAnyWay() throws Exception {
    for (String query : SEARCHES) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
      assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("engine", "pages");
    }
  }

  /** Each query's events, by their n, newest first: {@code expected}. */
  private static void eachAnswers(List<String> queries, List<String> expected) throws Exception {
    for (String query : queries) {
      assertThat(EnginePages.cells(EnginePages.rows(STORE.server(), query + " | table n"), "n"))
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(expected);
    }
  }

  /**
   * The events whose current {@code _raw} holds the word, computed here from the texts sent (a
   * {@code _raw} a command set is matched, not the stored text); the subsearch's rows appended
   * match on the {@code _raw} they hold; a row without {@code _raw} on its fields.
   */
  @Test
  void matchesTheEventsText() throws Exception {
    List<String> warned = new java.util.ArrayList<>();
    for (int n = RandomEventStore.EVENTS - 1; n >= 0; n--) {
      if (STORE.texts().get(n).contains("level=WARN")) {
        warned.add(Integer.toString(n));
      }
    }
    eachAnswers(
        List.of(
            "* | rename level AS _raw | search WARN",
            "* | eval _raw=upper(_raw) | search warn",
            "* | bin _time span=5m | search WARN"),
        warned);
    // the current _raw, where a command set one, is what a word matches (not the stored text)
    for (String query :
        List.of(
            "* | eval _raw=\"x\" | search WARN",
            "* | eval _raw=\"x\" | table * | search WARN",
            "* | rex field=_raw mode=sed \"s/WARN/W/g\" | search WARN",
            "* | eventstats count AS _raw by host | search WARN")) {
      assertThat(EnginePages.rows(STORE.server(), query)).as(query).isEmpty();
    }
    // the appended events keep their _raw and match on it: the newest five again, those of WARN
    List<String> appended = new java.util.ArrayList<>(warned);
    for (int n = RandomEventStore.EVENTS - 1; n >= RandomEventStore.EVENTS - 5; n--) {
      if (STORE.texts().get(n).contains("level=WARN")) {
        appended.add(Integer.toString(n));
      }
    }
    eachAnswers(List.of("* | append [search * | head 5] | search WARN"), appended);
    assertThat(
            export(
                "* | eval _raw=upper(_raw) | search WARN | stats count", SearchService.PAGE_SIZE))
        .contains("\"count\":\"" + warned.size() + "\"");
    // a row fields - _raw, a table not naming it or a rename left without _raw is matched on its
    // fields, whatever set _raw before: level holds WARN whole in the same events
    eachAnswers(
        List.of(
            "* | fields - _raw | search WARN",
            "* | eval _raw=\"WARN\" | fields - _raw | search WARN",
            "* | rex field=_raw mode=sed \"s/n=/WARN n=/\" | fields - _raw | search WARN | eval k=1",
            "* | rename _raw AS r | search WARN",
            "* | eval _raw=\"x\" | rename _raw AS r | search WARN",
            // a leading wildcard rename moving _raw away (refused before session 30)
            "* | rename _r* AS x* | search WARN",
            "* | table n, level | search warn"),
        warned);
    // no field holds x whole (the text, now r, holds more than x)
    for (String query :
        List.of(
            "* | eval _raw=\"x\" | fields - _raw | search x",
            "* | eval _raw=\"x\" | table n, level | search x",
            "* | eval _raw=\"x y\" | rename _raw AS r | search x")) {
      assertThat(EnginePages.rows(STORE.server(), query)).as(query).isEmpty();
    }
    assertThat(export("* | eval _raw=\"x\" | fields - _raw | search x | stats count", 7))
        .contains("\"count\":\"0\"");
    assertThat(export("* | fields - _raw | search WARN | stats count", 7))
        .contains("\"count\":\"" + warned.size() + "\"");
    // a leading append, then fields - _raw: the events and the subsearch's rows (every field) are
    // matched on their fields alike, level holding WARN (refused before session 30)
    assertThat(
            EnginePages.cells(
                EnginePages.rows(
                    STORE.server(),
                    "* | append [search * | head 5] | fields - _raw | search WARN | table n"),
                "n"))
        .as("append, fields - _raw (seed " + STORE.seed() + ")")
        .isEqualTo(appended);
    for (int pageSize : new int[] {SearchService.PAGE_SIZE, 7}) {
      assertThat(
              export(
                  "* | append [search * | head 5] | fields - _raw | search WARN | stats count",
                  pageSize))
          .contains("\"count\":\"" + appended.size() + "\"");
    }
  }

  /**
   * Outside a listing — a batch aggregation, one after a {@code head}, a {@code table} after the
   * search — the source's pages carry each event's own text ({@link
   * io.quarry.ql.exec.EventText#withOwnText}); after {@code append} the subsearch's rows match on
   * the {@code _raw} they hold (else their fields) and after {@code join} a joined row matches its
   * event's text, whatever {@code _raw} the subsearch laid over it. The answers (exported rows) the
   * same whatever the page size.
   */
  @Test
  void outsideAListingSamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            "* | eval _raw=upper(_raw) | search WARN | stats count",
            "* | eval _raw=upper(_raw) | search warn OR n>2590 | stats count by level",
            "* | lookup regions.csv region | search eu OR kv1 | stats count by label",
            "* | rename level AS _raw | search WARN | stats count",
            "* | rex \"n=(?<num>\\d+)\" | eval _raw=\"x\" | search WARN | stats max(num)",
            "* | head 100 | eval _raw=\"y\" | search WARN | stats count",
            "* | eval _raw=\"x\" . n | search WARN | table n level",
            "* | rex \"n=(?<num>\\d+)\" | eval _raw=null() | search INFO | table num",
            "* | append [search * | head 5] | search WARN | table n host",
            "* | append [search * | stats count by host] | search WARN | stats count",
            "* | append [search * | stats count by host] | search WARN OR h1 | table host n",
            "* | join host [search * | stats count by host] | search WARN | table n count",
            "* | join host [search * | head 3 | eval _raw=\"none\"] | search WARN | stats count",
            "* | join type=left overwrite=true n [search * | where n < 20 | eval _raw=\"x\"]"
                + " | search INFO | stats count",
            "* | eval _raw=\"x\" | append [search * | head 4] | search WARN | stats count",
            // bin lays its bucket over the event, which a bare word still asks
            "* | bin _time span=5m | search WARN | stats count by _time",
            "* | bin _time span=5m | search WARN | chart count over host by level",
            "* | bin n bins=10 | search INFO | stats count by n")) {
      assertExportedSamePagedAnyWay(query);
    }
  }

  /**
   * A {@code search} of bare words after commands that lay fields over the event — {@code
   * eventstats}, {@code streamstats}, the built-in plugin commands of named fields ({@code fillnull
   * f}, {@code mvexpand}, {@code convert} …) and {@code fillnull} of every field — in batch mode,
   * before a {@code table}, in a listing: the terms match the {@code _raw} column they pass through
   * (or, after a change of {@code _raw}, the events' own text the pages carry).
   */
  @Test
  void afterCommandsLayingFieldsOverTheEvent() throws Exception {
    for (String query :
        List.of(
            "* | fillnull value=0 region | search WARN | stats count",
            "* | fillnull value=0 | search WARN | stats count by host",
            "* | mvexpand team | search WARN | stats count by team",
            "* | makemv delim=\",\" team | search WARN | stats count by team",
            "* | streamstats count AS k | search WARN | stats count by host",
            "* | eventstats count AS c by host | search WARN | stats count by c",
            "* | eventstats count AS c by host | search NOT region=eu | search WARN"
                + " | table n, level, region",
            "* | fillnull value=none region | search WARN | table n region",
            "* | streamstats count AS k by level | search WARN | dedup region keepempty=true",
            "* | sort - n | streamstats count AS k | search WARN | head 20 | table n k",
            // a result named _raw, _raw changed before: the events' own text
            "* | eventstats count AS _raw by host | search WARN | stats count",
            "* | streamstats count AS _raw | search WARN | table n _raw",
            "* | eval _raw=lower(_raw) | eventstats count AS c by host | search WARN | stats count",
            "* | eval _raw=\"x\" | fillnull value=0 region | search WARN | stats count",
            "* | eval _raw=null() | fillnull value=z _raw | search z | stats count",
            "* | append [search * | head 5 | eval _raw=\"WARN\"] | eventstats count AS c"
                + " | search WARN | stats count by c",
            // appendcols lays fields over its input's events (never _raw); its rows past the
            // input's are no events, whatever _raw they hold
            "* | appendcols [search * | head 3 | eval extra=1] | search WARN | stats count",
            "* | appendcols [search * | head 3 | eval extra=1] | stats count by extra",
            "* | head 5 | appendcols [search * | head 8 | eval extra=1] | search WARN"
                + " | table n extra",
            "* | head 5 | appendcols override=true [search * | head 8 | eval extra=1,"
                + " _raw=\"WARN WARN\"] | search WARN | stats count by extra")) {
      assertExportedSamePagedAnyWay(query);
    }
    for (String query :
        List.of(
            "* | eventstats count AS c by host | search WARN",
            "* | streamstats count AS k by level | search WARN | eval z=k*2")) {
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
    }
  }

  /** The export of a search agrees in pages of 1,024 rows and of a few. */
  private static void assertExportedSamePagedAnyWay(String query) throws Exception {
    int pageSize = 1 + new java.util.Random(STORE.seed() ^ query.hashCode()).nextInt(50);
    assertThat(
            io.quarry.server.TestServers.exportDisagreement(
                export(query, SearchService.PAGE_SIZE), export(query, pageSize)))
        .as("%s in pages of %d (seed %d)", query, pageSize, STORE.seed())
        .isNull();
  }

  /** A search's answer exported over REST, in pages of {@code pageSize} rows. */
  private static String export(String query, int pageSize) throws Exception {
    System.setProperty(SearchService.PAGE_SIZE_PROPERTY, Integer.toString(pageSize));
    try {
      java.net.http.HttpResponse<String> response =
          io.quarry.server.TestServers.export(STORE.server(), STORE.password(), query);
      assertThat(response.statusCode()).as(query + ": " + response.body()).isEqualTo(200);
      return response.body();
    } finally {
      System.clearProperty(SearchService.PAGE_SIZE_PROPERTY);
    }
  }

  @Test
  void aRowWithoutRawIsMatchedOnEveryFieldItHolds() throws Exception {
    // a keyword over a row without _raw asks its every field, search-time extracted ones too: the
    // events, every field extracted, go into the commands (explain: page_source every_field)
    for (String query :
        List.of("* | fields - _raw | search WARN", "* | rename _raw AS r | search WARN | head 5")) {
      assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("engine", "pages")
          .containsEntry("page_source", "every_field");
      PageSizeAgreement.samePagedAnyWay(STORE.server(), query, false, STORE.seed());
    }
    // region us or eu, set at ingest: kv0 … in the text is extracted, the same word a field
    List<String> regioned = new java.util.ArrayList<>();
    for (String row : EnginePages.rows(STORE.server(), "* | search region=kv1 | table n")) {
      regioned.add(row);
    }
    assertThat(EnginePages.rows(STORE.server(), "* | fields - _raw | search kv1 | table n"))
        .isEqualTo(regioned)
        .isNotEmpty();
  }
}
