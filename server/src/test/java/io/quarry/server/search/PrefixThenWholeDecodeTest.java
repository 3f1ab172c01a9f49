package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
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
 * Review-b (session 33): a filtered scan (a search-time field comparison, no word) takes block runs
 * since lane short, and lane prefix reads a run's times from the block's first bytes while nothing
 * decoded it. When a column that is not filled by run ({@code host}) sends the run event by event,
 * the first event's {@code _time} is asked before its key=value filter column reads the texts: the
 * block's times are decoded by a prefix read, then the block is decoded whole anyway (the filter
 * column's {@code StoredEvent.indexedField} → {@code BlockEvents.hasField} decodes it). Asking
 * {@code min(_time)} should not add journal reads to a plan that decodes every block for its
 * filter. On cb0b616c: 16 journal blocks (12 prefix reads + 4 whole) against 4.
 *
 * <p>Lines loaded in one request: 12 block documents lying three to a journal block.
 */
class PrefixThenWholeDecodeTest {
  private static final String PASSWORD = "prefix-whole-pw";
  private static final int LINES = 12_000;

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < LINES; i++) {
      lines
          .append(String.format("2026-01-01 %02d:%02d:%02d ", i / 3600 % 24, i / 60 % 60, i % 60))
          .append("who=a")
          .append(i % 4)
          .append(" action=view item=")
          .append(i * 7919 % 100_000)
          .append(" took=")
          .append(i % 977)
          .append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
  }

  @Test
  void askingTheTimeOfAFilteredRunDoesNotReadItsBlockTwice() throws Exception {
    JsonNode without = scan("search who=a0 | stats count by host");
    JsonNode with = scan("search who=a0 | stats count, min(_time) AS lo by host");
    assertThat(without.get("journalBlocks").asLong()).as(without.toString()).isPositive();
    assertThat(with.get("journalBlocks").asLong())
        .as("journal blocks with min(_time) %s, without %s", with, without)
        .isEqualTo(without.get("journalBlocks").asLong());
  }

  /**
   * The same data holds several block documents per journal block (blocks as ingest flushed them,
   * before any compaction): a prefix read of a block document that is not the first of its journal
   * block decodes every document before it, for each document again (no block kept between them),
   * so reading the times "without the texts" decodes more than decoding each journal block once
   * (with several documents to a journal block the most a prefix path can do is not to lose). On
   * cb0b616c: 838,217 bytes in 12 prefix reads against 762,714 in 4 whole decodes (and the prefix's
   * count is only the bytes asked for: zstd decoded whole 128 KiB blocks behind them).
   */
  @Test
  void timesWithoutTheTextsDecodeNoMoreThanTheWholeBlocks() throws Exception {
    JsonNode whole = scan("search * | stats count, min(_time) AS lo by host"); // no runs: whole
    JsonNode prefix = scan("search * | stats count, min(_time) AS lo"); // runs: prefix reads
    assertThat(prefix.get("rows").asText())
        .contains("\"count\":\"12000\"", "\"lo\":\"1767225600\"");
    assertThat(whole.get("rows").asText()).contains("\"count\":\"12000\"", "\"lo\":\"1767225600\"");
    assertThat(prefix.get("journalBytes").asLong())
        .as("bytes decoded by prefix reads %s, whole %s", prefix, whole)
        .isLessThanOrEqualTo(whole.get("journalBytes").asLong());
  }

  private static JsonNode scan(String search) throws Exception {
    return scan(server, PASSWORD, search);
  }

  /**
   * The search's scan costs as its job's inspector reports them ({@code /costs/scan}), with its
   * results ({@code rows}, through the export endpoint) and {@code eventsRead}.
   */
  static JsonNode scan(QuarryServer server, String password, String search) throws Exception {
    JsonNode inspect = EventRunSearchTest.inspect(server, password, search);
    List<JsonNode> results = EventRunSearchTest.results(server, password, search);
    assertThat(results).as(search).isNotEmpty();
    List<String> rows = new ArrayList<>();
    results.forEach(r -> rows.add(r.toString()));
    ((com.fasterxml.jackson.databind.node.ObjectNode) inspect.at("/costs/scan"))
        .put("rows", String.join(";", rows))
        .put("eventsRead", inspect.at("/costs/eventsRead").asLong());
    return inspect.at("/costs/scan");
  }
}
