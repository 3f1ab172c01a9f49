package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Page;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columns an answer lists and their order, against expectations written by hand: {@code
 * table}/{@code fields} of literal names keep their columns in the order named (Splunk's Search
 * Reference: "Columns are displayed in the same order that fields are specified") through the
 * commands after them that reorder or drop rows — a row lists a named field whose value it lacks —,
 * and a {@code transaction} result lists its fields in name order. A page says only which cells
 * hold values; these are the answers where that is not enough ({@code RowPaging}'s listed columns).
 */
class ColumnOrderTest {
  private static final String PASSWORD = "column-order-pw";

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    TestServers.loadRaw(
        server,
        "2026-01-01 00:00:01 user=ann took=10 zone=b\n"
            + "2026-01-01 00:00:02 user=bob took=12\n"
            + "2026-01-01 00:00:03 zone=a user=ann code=7\n");
  }

  @Test
  void tableKeepsItsColumnsThroughSort() throws Exception {
    // bob (took 12, no zone) sorts first; the third event has no took: last
    String query = "* | table user, zone, took | sort - took";
    assertThat(columns(query)).as(query).containsExactly("user, zone, took");
    assertThat(EnginePages.rows(server, query))
        .as(query)
        .containsExactly(
            "user:STRING=[bob]\u0001took:STRING=[12]\u0001",
            "user:STRING=[ann]\u0001zone:STRING=[b]\u0001took:STRING=[10]\u0001",
            "user:STRING=[ann]\u0001zone:STRING=[a]\u0001");
  }

  @Test
  void fieldsKeepsItsColumnsThroughReverseAndDedup() throws Exception {
    // newest first is 3, 2, 1; reversed, event 1 (no code) comes first
    for (String query :
        List.of(
            "* | fields code, took, user | reverse",
            "* | fields code, took, user | dedup user sortby - took")) {
      assertThat(columns(query)).as(query).containsExactly("code, took, user, _time, _raw");
    }
  }

  @Test
  void fillnullAfterTableFillsANamedColumnNoRowHolds() throws Exception {
    // no event has item; table lists it on every row, so fillnull fills it — as text, the type of
    // a column without values, on every page of the answer
    String query = "* | sort - took | table user, item | fillnull value=0";
    assertThat(columns(query)).as(query).containsExactly("user, item");
    assertThat(EnginePages.rows(server, query))
        .as(query)
        .containsExactly(
            "user:STRING=[bob]\u0001item:STRING=[0]\u0001",
            "user:STRING=[ann]\u0001item:STRING=[0]\u0001",
            "user:STRING=[ann]\u0001item:STRING=[0]\u0001");
  }

  @Test
  void transactionListsItsFieldsInNameOrder() throws Exception {
    // ann's two events: code from the newer, took from the older, zone from both; the row lists
    // them default fields first, extracted after, a page in its column order: neither decides
    String query = "user=ann | transaction user";
    assertThat(columns(query))
        .as(query)
        .containsExactly(
            "_time, _raw, code, host, index, source, sourcetype, took, user, zone, duration,"
                + " eventcount");
  }

  /** Each page's column names, joined. */
  private static List<String> columns(String query) throws Exception {
    List<String> columns = new ArrayList<>();
    EnginePages.run(
        server,
        query,
        false,
        (Page page) ->
            columns.add(
                String.join(
                    ", ", page.schema().columns().stream().map(column -> column.name()).toList())));
    return columns;
  }
}
