package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.QuarryServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search whose scan aggregates a key=value field itself ({@link KeyValueStates}, {@link
 * KeyStateTables}) stopped mid-scan on a real server — timed tables in both layouts, tables of
 * counts alone in blocks — its operators' memory on an account of the test's own (no breaker: what
 * the search left held stays visible). Finalized, it answers the states of every event it read
 * before the stop once — those the scan aggregated and those it handed to the page path (one line
 * in seven, past ASCII, so that the stop falls inside a batch of values) — and says it was
 * finalized; cancelled, it ends cancelled (the job's {@code CANCELLED} is {@link
 * SearchControl#cancelled}) and answers nothing. Either way every byte its tables and groups held
 * is given back. The stop comes at the scan's first check after {@value #STOP_AFTER} of its {@value
 * #EVENTS} events were read (each slice checks every {@value SearchControl#EVERY} events it
 * answered), through {@link SearchControl#stopWhen}, as a job's finalize or cancel would.
 */
class KeyValueStatesStopTest {
  private static final String PASSWORD = "kv-states-stop-pw";
  private static final int EVENTS = 24_500; // a multiple of seven
  private static final int KEYS = 600;
  // one line in seven past ASCII: the page path's, so that the scan's checks (every
  // SearchControl.EVERY events it answered) fall anywhere in its batches of values
  private static final int PAGED = EVENTS / 7;
  // the scan reports the events it read at its checks, every SearchControl.EVERY
  private static final int STOP_AFTER = 8 * SearchControl.EVERY;
  private static final String SESSIONS = " | stats range(_time), count by JSESSIONID";

  /**
   * The searches the scan aggregates itself: with the times (timed tables) in both layouts, a count
   * alone (tables of counts) in blocks — in the event layout the term index counts that.
   */
  private static final List<String> SEARCHES =
      List.of("index=ev" + SESSIONS, "index=bl" + SESSIONS, "index=bl | stats count by JSESSIONID");

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        FusedScanFixtures.startLoaded(
            dataDirectory,
            PASSWORD,
            EVENTS,
            i ->
                String.format("2026-01-01 %02d:%02d:%02d ", i / 3600, i / 60 % 60, i % 60)
                    + (i % 7 == 3 ? "GET /café?JSESSIONID=S" : "GET /cart?JSESSIONID=S")
                    + (i % KEYS)
                    + " status=200");
  }

  @Test
  void theScanAggregatesTheseSearchesItself() throws Exception {
    FusedScanFixtures.assertAggregatedByKeyValue(server, SEARCHES, "JSESSIONID");
  }

  @Test
  void finalizedItAnswersTheStatesOfWhatItAggregatedAndSaysSo() throws Exception {
    for (String search : SEARCHES) {
      SearchControl control = new SearchControl();
      control.stopWhen(() -> control.eventsRead() >= STOP_AFTER); // finalized mid-scan
      MemoryAccount account = MemoryAccount.unbounded("test");
      List<Page> pages = new ArrayList<>();
      SearchStats answered = run(search, control, pages, account);

      long aggregated = control.aggregatedByKeyValue();
      assertThat(answered.eventsRead())
          .as(search + ": stopped mid-scan")
          .isGreaterThanOrEqualTo(STOP_AFTER)
          .isLessThan(EVENTS / 2);
      assertThat(aggregated).as(search + ": aggregated in the scan").isPositive();
      assertThat(answered.eventsAggregatedByKeyValue()).isEqualTo(aggregated);
      assertThat(counted(pages))
          .as(search + ": each event read counted once, aggregated or paged")
          .isEqualTo(answered.eventsMatched())
          .isGreaterThan(aggregated);
      assertThat(answered.messages()).as(search).anyMatch(m -> m.contains("finalized"));
      assertThat(account.used()).as(search + ": bytes still held").isZero();
      assertThat(account.peak()).as(search + ": the tables were charged").isPositive();
    }
  }

  @Test
  void cancelledItEndsCancelledAndGivesBackItsMemory() throws Exception {
    for (String search : SEARCHES) {
      SearchControl control = new SearchControl();
      control.stopWhen(() -> cancelled(control)); // cancelled mid-scan
      MemoryAccount account = MemoryAccount.unbounded("test");
      List<Page> pages = new ArrayList<>();

      assertThatThrownBy(() -> run(search, control, pages, account))
          .as(search)
          .isInstanceOf(RuntimeException.class);

      assertThat(control.cancelled()).as(search).isTrue();
      assertThat(control.eventsRead())
          .as(search + ": cancelled mid-scan")
          .isGreaterThanOrEqualTo(STOP_AFTER)
          .isLessThan(EVENTS / 2);
      assertThat(control.aggregatedByKeyValue())
          .as(search + ": aggregated in the scan until then")
          .isPositive();
      assertThat(pages).as(search + ": nothing answered").isEmpty();
      assertThat(account.used()).as(search + ": bytes still held").isZero();
      assertThat(account.peak()).as(search + ": the tables were charged").isPositive();
    }
  }

  @Test
  void notStoppedItAggregatesEveryEvent() throws Exception {
    for (String search : SEARCHES) {
      SearchControl control = new SearchControl();
      MemoryAccount account = MemoryAccount.unbounded("test");
      List<Page> pages = new ArrayList<>();
      run(search, control, pages, account);
      assertThat(control.aggregatedByKeyValue()).as(search).isEqualTo(EVENTS - PAGED);
      assertThat(counted(pages)).as(search).isEqualTo(EVENTS);
      assertThat(pages.stream().mapToInt(Page::positionCount).sum()).as(search).isEqualTo(KEYS);
      assertThat(account.used()).as(search + ": bytes still held").isZero();
    }
  }

  /**
   * Cancels the search once it read {@value #STOP_AFTER} events, as a job's cancel would: asked at
   * the scan's checks ({@link SearchControl#stopWhen}), after which the search stays cancelled.
   */
  private static boolean cancelled(SearchControl control) {
    if (control.eventsRead() < STOP_AFTER) {
      return false;
    }
    control.cancel();
    return true;
  }

  private static SearchStats run(
      String search, SearchControl control, List<Page> pages, MemoryAccount account)
      throws Exception {
    return FusedScanFixtures.run(server, search, control, pages::add, account);
  }

  /** The answer's counts summed: the events its groups hold. */
  private static long counted(List<Page> pages) {
    long sum = 0;
    for (Page page : pages) {
      LongBlock counts = (LongBlock) page.block("count");
      for (int p = 0; p < page.positionCount(); p++) {
        sum += counts.getLongValue(counts.getFirstValueIndex(p));
      }
    }
    return sum;
  }
}
