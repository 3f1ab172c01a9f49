package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.server.QuarryServer;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 44): a search whose scan aggregates a key=value field itself ({@link
 * KeyValueStates}, {@link KeyStateTables}) that fails mid-scan on a real server — its tables grow
 * past the search's memory limit — gives back every byte it held: the tables' (released on the
 * failure path, {@link KeyStateTables#release}) and the groups'. Timed tables and tables of counts
 * alone, both layouts; the search's operators on an account of the test's own ({@link
 * SearchService#run} with an account; its typed memory error answered as the API's 422), limited to
 * {@value #LIMIT} bytes, so that what the failed search left held stays visible.
 */
class KeyValueStatesFailureReviewTest {
  private static final String PASSWORD = "kv-states-failure-pw";
  private static final int KEYS = 6_000; // ~306-byte keys: a 2 MiB arena, past the limit
  private static final long LIMIT = 1L << 20;

  /**
   * Timed tables in both layouts, tables of counts alone in blocks (in the event layout the term
   * index counts {@code stats count by k}).
   */
  private static final List<String> SEARCHES =
      List.of(
          "index=ev | stats range(_time), count by k",
          "index=bl | stats range(_time), count by k",
          "index=bl | stats count by k");

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    String pad = "p".repeat(300);
    server = // each key twice: the tables' judgement keeps them
        FusedScanFixtures.startLoaded(
            dataDirectory,
            PASSWORD,
            2 * KEYS,
            n -> {
              int i = n % KEYS;
              return String.format("2026-01-07T10:%02d:%02dZ from k=k", i / 60 % 60, i % 60)
                  + i
                  + pad
                  + " took=3";
            });
  }

  @Test
  void theseSearchesAreAggregatedByTheScan() throws Exception {
    FusedScanFixtures.assertAggregatedByKeyValue(server, SEARCHES, "k");
  }

  @Test
  void overTheLimitMidScanTheSearchFailsAndGivesBackEveryByte() throws Exception {
    for (String search : SEARCHES) {
      SearchControl control = new SearchControl();
      MemoryAccount account = new MemoryAccount("test", LIMIT);
      assertThatThrownBy(() -> FusedScanFixtures.run(server, search, control, page -> {}, account))
          .as(search)
          .isInstanceOf(RuntimeException.class)
          .hasMessageContaining("stats needs")
          .hasMessageContaining("raise search.maxMemoryBytes");
      assertThat(control.aggregatedByKeyValue())
          .as(search + ": the scan aggregated events before it failed")
          .isPositive();
      assertThat(account.peak()).as(search + ": charged").isPositive();
      assertThat(account.used()).as(search + ": bytes still held after the failure").isZero();
    }
  }
}
