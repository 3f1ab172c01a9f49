package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionTest {
  private static final long SECOND = 1_000_000L;

  /**
   * {@code command} on the page engine ({@link TransactionOperator} in a {@link PageReduce}) over
   * {@code events}, newest first as a time-ordered search delivers them, in pages of two (a
   * transaction spans pages); each result as field → value, a multivalue as a list.
   */
  private static List<Map<String, Object>> run(String command, List<Map<String, Object>> events) {
    return TestPages.rows(
        PageRun.run("* | " + command, TestPages.pages(TestPages.cells(events), 2), 16));
  }

  private static Map<String, Object> event(long second, String session, String raw, String extra) {
    return Map.of("_time", second * SECOND, "session", session, "_raw", raw, "step", extra);
  }

  @Test
  void groupsBySharedValuesWithDurationAndCount() {
    List<Map<String, Object>> events =
        List.of( // newest first
            event(130, "a", "a checkout", "checkout"),
            event(120, "b", "b view", "view"),
            event(110, "a", "a cart", "cart"),
            event(100, "a", "a view", "view"),
            Map.of("_time", 90 * SECOND, "_raw", "no session"));
    var transactions = run("transaction session", events);
    assertThat(transactions).hasSize(2);
    assertThat(transactions.get(0)) // newest transaction first (b started at 120)
        .containsEntry("session", "b")
        .containsEntry("eventcount", 1L)
        .containsEntry("duration", 0L);
    assertThat(transactions.get(1))
        .containsEntry("_time", 100 * SECOND)
        .containsEntry("_raw", "a view\na cart\na checkout")
        .containsEntry("session", "a")
        .containsEntry("step", List.of("cart", "checkout", "view")) // a sorted set
        .containsEntry("duration", 30L)
        .containsEntry("eventcount", 3L);
  }

  @Test
  void mvlistKeepsEveryValueInTimeOrder() {
    List<Map<String, Object>> events =
        List.of(
            event(130, "a", "a view", "view"),
            event(120, "a", "a cart", "cart"),
            event(110, "a", "a view", "view"));
    assertThat(run("transaction session mvlist=true", events).get(0))
        .containsEntry("step", List.of("view", "cart", "view"));
    assertThat(run("transaction session mvlist=\"step\"", events).get(0))
        .containsEntry("step", List.of("view", "cart", "view"));
    assertThat(run("transaction session", events).get(0))
        .containsEntry("step", List.of("cart", "view"));
  }

  @Test
  void valuesEqualAsTextAreOneValueWhateverTheirType() {
    // a field a page holds as a number and another page as text (fillnull value=0 over columns of
    // either type): Splunk's values are text, so the transaction lists 0 once
    List<Map<String, Object>> events =
        List.of(
            Map.of("_time", 140 * SECOND, "session", "a", "_raw", "a 4", "step", 0L),
            Map.of("_time", 130 * SECOND, "session", "a", "_raw", "a 3", "step", 1L),
            event(120, "a", "a 2", "0"),
            event(110, "a", "a 1", "z0"));
    Object step = run("transaction session", events).get(0).get("step");
    assertThat(step).isInstanceOf(List.class);
    assertThat(((List<?>) step).stream().map(String::valueOf).toList())
        .containsExactly("0", "1", "z0");
  }

  @Test
  void partialKeysConnectedAndOrphans() {
    // newest first: host only, then cookie only, then host and cookie, then neither
    List<Map<String, Object>> events =
        List.of(
            Map.of("_time", 40 * SECOND, "host", "h", "_raw", "4"),
            Map.of("_time", 30 * SECOND, "cookie", "c", "_raw", "3"),
            Map.of("_time", 20 * SECOND, "host", "h", "cookie", "c", "_raw", "2"),
            Map.of("_time", 10 * SECOND, "_raw", "1"));
    // connected: event 3 shares no value with event 4's transaction and starts its own; event 2
    // shares host with the first (the newest agreeing) and joins it, bringing cookie
    assertThat(run("transaction host cookie", events))
        .extracting(r -> r.get("eventcount"))
        .containsExactly(1L, 2L);
    assertThat(run("transaction host cookie connected=false", events))
        .extracting(r -> r.get("eventcount"))
        .containsExactly(3L);
    var kept = run("transaction host cookie connected=false keeporphans=true", events);
    assertThat(kept).hasSize(2);
    assertThat(kept.get(1)).containsEntry("_txn_orphan", 1L).containsEntry("_raw", "1");
    // a conflicting value never joins
    List<Map<String, Object>> conflicting =
        List.of(
            Map.of("_time", 40 * SECOND, "host", "h", "cookie", "x", "_raw", "4"),
            Map.of("_time", 30 * SECOND, "host", "h", "cookie", "y", "_raw", "3"));
    assertThat(run("transaction host cookie connected=false", conflicting)).hasSize(2);
  }

  @Test
  void maxpauseMaxspanAndMaxeventsSplitTransactions() {
    List<Map<String, Object>> events = new ArrayList<>();
    for (long t : new long[] {1000, 990, 980, 700, 690}) { // a 280 s gap after 980
      events.add(event(t, "s", "e" + t, "x"));
    }
    assertThat(run("transaction session maxpause=1m", events))
        .extracting(r -> r.get("eventcount"))
        .containsExactly(3L, 2L);
    assertThat(run("transaction session maxspan=15s", events))
        .extracting(r -> r.get("eventcount"))
        .containsExactly(2L, 1L, 2L);
    assertThat(run("transaction session maxevents=2", events))
        .extracting(r -> r.get("eventcount"))
        .containsExactly(2L, 2L, 1L);
    assertThat(run("transaction session", events).get(0)).containsEntry("duration", 310L);
  }

  @Test
  void unsupportedFormsSayWhy() {
    Parser parser = new Parser(CommandRegistry.builtIns());
    assertThatThrownBy(() -> parser.parse("* | transaction session mvlist=\"*\""))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("mvlist takes true, false or field names");
    assertThatThrownBy(() -> parser.parse("* | transaction session connected=maybe"))
        .isInstanceOf(QueryParseException.class)
        .hasMessageContaining("not a boolean");
    assertThatThrownBy(() -> parser.parse("* | transaction s startswith=eval(x=)"))
        .isInstanceOf(QueryParseException.class);
    assertThat(parser.parse("* | transaction maxspan=5m startswith=login").commands().get(1))
        .isInstanceOf(io.quarry.ql.ast.TransactionCommand.class);
    assertThatThrownBy(() -> parser.parse("* | transaction s maxspan=1mon"))
        .hasMessageContaining("maxspan must be a time span");
  }
}
