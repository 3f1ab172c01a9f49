package io.quarry.server.rest;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.AdmittedSearch;
import io.quarry.server.http.Exchange;
import io.quarry.server.search.SearchControl;
import io.quarry.server.search.SearchService;
import io.quarry.server.search.SearchStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;

/**
 * Runs a search whose pages go straight to a client's socket: when the client goes away (its
 * connection closes, or writing fails) the search is cancelled at once, instead of reading on for
 * nobody; a failed write comes back as the {@link IOException} it was. The search runs admitted
 * (its user's quota slot, time cap and audit record: {@link AdmittedSearch}).
 */
final class StreamedSearch {
  /** Writes one page to the client. */
  @FunctionalInterface
  interface PageWriter {
    void page(Page page) throws IOException;
  }

  /** Ends the response of a search that ran to its end: its last lines, the stream's end. */
  @FunctionalInterface
  interface Ending {
    void finish(SearchStats stats) throws IOException;
  }

  private StreamedSearch() {}

  /**
   * Runs the search, its pages to {@code writer}; once it ran to its end, {@code ending} finishes
   * the response and only then are the search's summary logged and its audit record made — the
   * client has its answer without waiting for them (both are made whether or not the ending could
   * be sent); its events list every field they have where {@code everyEventField} ({@link
   * SearchLevel}).
   */
  static SearchStats run(
      SearchService search,
      AdmittedSearch admitted,
      String query,
      SearchPlan plan,
      Duration timeLimit,
      Exchange exchange,
      PageWriter writer,
      Ending ending,
      boolean everyEventField)
      throws IOException {
    SearchControl control =
        new SearchControl()
            .summaryLoggedLater()
            .sid(admitted.id())
            .planning(admitted.planningCpu(), admitted.planningElapsed());
    if (everyEventField) {
      control.everyEventField();
    }
    SearchStats stats;
    try {
      stats = run(search, query, plan, admitted.timeLimit(timeLimit), control, exchange, writer);
    } catch (IOException | RuntimeException | Error e) {
      admitted.failed(plan, e);
      throw e;
    }
    try {
      ending.finish(stats);
    } finally {
      search.logSummary(query, stats);
      admitted.ended(plan, stats, control);
    }
    return stats;
  }

  private static SearchStats run(
      SearchService search,
      String query,
      SearchPlan plan,
      Duration timeLimit,
      SearchControl control,
      Exchange exchange,
      PageWriter writer)
      throws IOException {
    // a client that hangs up while an aggregation has nothing to write yet cancels it too
    try (Exchange.Registration gone = exchange.onClientGone(control::cancel)) {
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
