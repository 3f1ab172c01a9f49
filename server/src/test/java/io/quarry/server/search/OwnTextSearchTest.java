package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A {@code search} of bare words in an event listing after commands that change {@code _raw} but
 * keep the rows events ({@code eval _raw=…}, {@code rename x AS _raw}, {@code rex mode=sed}, a
 * {@code lookup} without {@code OUTPUT}) gives the pages the row engine gives — page by page, over
 * a real store of random events ({@link EnginePages}): on rows an event row asks its event's stored
 * text whatever {@code _raw} it holds, on pages the terms match the event's own text the listing
 * carries ({@link io.quarry.ql.exec.EventText#OWN_RAW}).
 */
class OwnTextSearchTest {
  @RegisterExtension
  static final EnginePages.RandomEventStore STORE =
      new EnginePages.RandomEventStore("own-text-search-pw");

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
          "* | rex \"level=(?<lv>\\w+)\" | eval _raw=lv | search INFO n>3 | eval k=lv");

  @Test
  void pagesAsTheRowEngine() throws Exception {
    for (String query : SEARCHES) {
      assertThat(EnginePages.pages(STORE.server(), query, PageBatch.PAGES_ONLY, false))
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(EnginePages.pages(STORE.server(), query, "rows", false));
      assertThat(EnginePages.explain(STORE.server(), query))
          .as(query)
          .containsEntry("engine", "pages");
    }
  }

  /**
   * Outside a listing — a batch aggregation, one after a {@code head}, a {@code table} after the
   * search — the source's pages carry each event's own text ({@link
   * io.quarry.ql.exec.EventText#withOwnText}); after {@code append} the subsearch's rows match no
   * term (on rows they are no events, whatever {@code _raw} they hold) and after {@code join} a
   * joined row matches its event's text, whatever {@code _raw} the subsearch laid over it. The
   * answers (exported rows) are the row engine's, with every row operator refused.
   */
  @Test
  void outsideAListingAsTheRowEngine() throws Exception {
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
      String onPages = export(query, PageBatch.PAGES_ONLY);
      assertThat(onPages)
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(export(query, "rows"));
    }
  }

  /**
   * A {@code search} of bare words after commands that lay fields over the event — {@code
   * eventstats}, {@code streamstats}, the built-in plugin commands of named fields ({@code fillnull
   * f}, {@code mvexpand}, {@code convert} …) and {@code fillnull} of every field — in batch mode,
   * before a {@code table}, in a listing: on rows their rows ask their event for terms ({@code
   * AssignedRow}, the adapter's overlay row), on pages the terms match the {@code _raw} column they
   * pass through (or, after a change of {@code _raw}, the events' own text the pages carry).
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
      assertThat(export(query, PageBatch.PAGES_ONLY))
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(export(query, "rows"));
    }
    for (String query :
        List.of(
            "* | eventstats count AS c by host | search WARN",
            "* | streamstats count AS k by level | search WARN | eval z=k*2")) {
      assertThat(EnginePages.pages(STORE.server(), query, PageBatch.PAGES_ONLY, false))
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(EnginePages.pages(STORE.server(), query, "rows", false));
    }
  }

  private static String export(String query, String engine) throws Exception {
    String before = System.getProperty(PageBatch.ENGINE_PROPERTY);
    System.setProperty(PageBatch.ENGINE_PROPERTY, engine);
    try {
      java.net.http.HttpResponse<String> response =
          io.quarry.server.TestServers.export(STORE.server(), STORE.password(), query);
      assertThat(response.statusCode()).as(query + ": " + response.body()).isEqualTo(200);
      return response.body();
    } finally {
      if (before == null) {
        System.clearProperty(PageBatch.ENGINE_PROPERTY);
      } else {
        System.setProperty(PageBatch.ENGINE_PROPERTY, before);
      }
    }
  }

  @Test
  void aRowWithoutRawStillMatchesNoTerm() throws Exception {
    // a keyword matches a row's _raw (Splunk's Search Manual): a row of fields/table has only the
    // _raw it keeps, and one whose _raw a rename moved away has none (since session 27 on both
    // engines and on pages: route8b) — none of these matches a row
    for (String query :
        List.of(
            "* | fields - _raw | search WARN",
            "* | eval _raw=\"x\" | fields - _raw | search x",
            "* | rename _raw AS r | search WARN",
            "* | rename _r* AS x* | search WARN",
            "* | eval _raw=\"x\" | rename _raw AS r | search x")) {
      if (query.contains("rename")) { // on pages (the others: rows where pages has no stage yet)
        assertThat(EnginePages.rows(STORE.server(), query, PageBatch.PAGES_ONLY))
            .as(query + " (seed " + STORE.seed() + ")")
            .isEmpty();
      }
      assertThat(EnginePages.pages(STORE.server(), query, "pages", false))
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(EnginePages.pages(STORE.server(), query, "rows", false));
    }
    assertThat(EnginePages.explain(STORE.server(), "* | rename _raw AS r | search WARN"))
        .containsEntry("engine", "pages");
  }
}
