package io.quarry.server.rest;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.search.SearchControl;
import io.quarry.server.search.SearchService;
import io.quarry.server.search.SearchStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * Runs a search whose pages go straight to a client's socket: when writing fails (the client went
 * away) the search is cancelled at once, instead of reading on for nobody, and the failure comes
 * back as the {@link IOException} it was.
 */
final class StreamedSearch {
  /** Writes one page to the client. */
  @FunctionalInterface
  interface PageWriter {
    void page(Page page) throws IOException;
  }

  private StreamedSearch() {}

  static SearchStats run(
      SearchService search, String query, SearchPlan plan, Duration timeLimit, PageWriter writer)
      throws IOException {
    SearchControl control = new SearchControl();
    try {
      return search.run(
          query,
          plan,
          timeLimit,
          control,
          page -> {
            try {
              writer.page(page);
            } catch (IOException clientGone) {
              control.cancel(); // nobody is listening: stop reading events
              throw new UncheckedIOException(clientGone);
            }
          });
    } catch (UncheckedIOException clientGone) {
      throw clientGone.getCause();
    }
  }
}
