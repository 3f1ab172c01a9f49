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
          "* | where n > 5 | eval _raw=\"r\" . n | search \"level=WARN\" | eval k=1");

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

  @Test
  void aRowWithoutRawStillMatchesNoTerm() throws Exception {
    // on rows a row of fields/table has only the _raw it keeps; _raw renamed away: no _raw to match
    for (String query :
        List.of(
            "* | fields - _raw | search WARN", "* | eval _raw=\"x\" | fields - _raw | search x")) {
      assertThat(EnginePages.pages(STORE.server(), query, "pages", false))
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(EnginePages.pages(STORE.server(), query, "rows", false));
    }
    assertThat(EnginePages.explain(STORE.server(), "* | rename _raw AS r | search WARN"))
        .containsEntry("engine", "rows");
  }
}
