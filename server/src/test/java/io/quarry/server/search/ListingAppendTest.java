package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An event listing ending at {@code append}, with only commands after it that keep the rows as they
 * come ({@code index=x | append [search …]}, {@code | append […] | search foo | head 5}) gives the
 * pages the row engine gives — page by page, over a real store of random events ({@link
 * EnginePages}): the listing's answer, then the subsearch's rows, through the commands from the
 * append on, paged again as the collector pages rows (the last page of events and the first
 * subsearch rows in one page); a bare word matches an event's own text and none of the subsearch's
 * rows (on rows they are no events, whatever {@code _raw} they hold).
 */
class ListingAppendTest {
  @RegisterExtension
  static final EnginePages.RandomEventStore STORE =
      new EnginePages.RandomEventStore("listing-append-pw");

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
          "* | head 10 | append [search * | head 2] | append [search * | stats count] | reverse");

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
  void aSubsearchsListingAsTheRowEngine() throws Exception {
    // every field of the events, as a subsearch's listing carries them
    for (String query :
        List.of(
            "* | append [search * | head 2] | head 3000", "* | append [search * | stats count]")) {
      assertThat(EnginePages.pages(STORE.server(), query, PageBatch.PAGES_ONLY, true))
          .as(query + " (seed " + STORE.seed() + ")")
          .isEqualTo(EnginePages.pages(STORE.server(), query, "rows", true));
    }
  }
}
