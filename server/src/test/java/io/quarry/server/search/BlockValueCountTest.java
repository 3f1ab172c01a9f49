package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.RunningServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The block layout's counts from per-block value counts (issue 23): {@code stats count}, {@code
 * stats count by f}, {@code top f} and {@code timechart count by f}, with and without a filter the
 * blocks decide, over time ranges that cut blocks, multivalued and missing fields, values that
 * differ in case and hosts that change within a block — the same answer as the event layout over
 * the same events (one real server, an index of each format), and as the block layout's own row
 * path; and the blocks it counts are not decoded.
 */
class BlockValueCountTest {
  private static final String PASSWORD = "block-count-password";
  private static final String TOKEN = "block-count-token";
  private static final long START = LayoutEvents.START;

  @RegisterExtension
  static final RunningServer SERVER =
      LayoutEvents.running(PASSWORD, TOKEN, BlockValueCountTest::envelope);

  private static final String[] LEVELS = {"info", "WARN", "Error", "info"};
  private static final String[] CODES = {"200", "404", "500", "503", "200"};

  /** Event {@code i}: its level, code and tags as index-time fields, its host by third. */
  private static String envelope(String index, int i) {
    int batch = i / 1000;
    String level = i % 13 == 0 ? "warn" : LEVELS[i % 4];
    String tags =
        switch (i % 3) {
          case 0 -> "[\"a\",\"b\"]";
          case 1 -> "\"b\"";
          default -> i % 30 == 2 ? null : "\"c\"";
        };
    String code = batch == 0 && i % 97 == 0 ? "abc" : CODES[i % 5];
    return String.format(
        "{\"time\":%d,\"host\":\"h%d\",\"sourcetype\":\"tags\",\"index\":\"%s\","
            + "\"event\":\"event %d level %s\",\"fields\":{\"level\":\"%s\",\"code\":\"%s\"%s}}%n",
        START + i * 7L,
        batch == 2 ? 9 : i % 3,
        index,
        i,
        level,
        level,
        code,
        tags == null ? "" : ",\"tag\":" + tags);
  }

  private static String search(String query) throws Exception {
    return SERVER.exportOk(query);
  }

  private static SearchStats stats(String query) throws Exception {
    return SERVER
        .server()
        .search()
        .run(query, SERVER.server().search().plan(query, null, null), page -> {});
  }

  private static final List<String> RANGES =
      List.of(
          "",
          // cuts blocks at both ends
          "earliest=" + (START + 2000) + " latest=" + (START + 15000) + " ",
          // inside one block
          "earliest=" + (START + 100) + " latest=" + (START + 900) + " ");

  private static final List<String> SEARCHES =
      List.of(
          "| stats count",
          "| stats count by level",
          "| top level",
          "| top limit=2 tag",
          "| stats count by tag",
          "| stats count by host",
          "| top host",
          "| timechart span=1h count by level",
          "| timechart span=10m count by level",
          "| timechart span=1h count by tag",
          "level=warn | stats count",
          "level=warn | stats count by level",
          "NOT level=info | stats count by level",
          "level IN (warn, error) | stats count",
          "(level=warn OR level=error) | top level",
          "level=warn | timechart span=1h count by level",
          "tag=a | stats count",
          "tag=c | stats count by tag",
          "host=h1 | stats count",
          "host=h1 | stats count by level",
          "sourcetype=tags level=info | stats count",
          "code>=500 | stats count",
          "code>=500 | stats count by code",
          "code<500 code>=404 | stats count",
          "NOT code=200 | stats count by code",
          "code=404 level=info | stats count",
          "code=404 level=info | stats count by level",
          // a filter on one field, a count by another: blocks mixed on it counted per event
          "code>=500 | stats count by level",
          "level=warn | stats count by code",
          "code=404 | top level",
          "NOT level=info | top limit=3 code",
          "NOT code=200 | timechart span=1h count by level",
          "level=error | stats count by host",
          "level=warn | stats count by tag",
          // several by-fields: counted per combination of the fields' codes (ordinals for events);
          // multivalued (tag) or missing (tag, nosuch) fields leave their events to the rows
          "| stats count by level, code",
          "| stats count AS n, count by code, level",
          "| stats count by host, level, code",
          "| stats count by level, tag",
          "| stats count by tag, code",
          "code>=500 | stats count by level, host",
          "level=warn | stats count by code, level",
          "NOT code=200 | stats count by level, code, tag",
          "host=h1 code=404 | stats count by level, code",
          "| dedup level | table _time level code",
          "| dedup host | table _time host",
          "| dedup tag | table _time tag",
          "| dedup code | table _time code");

  @Test
  void blocksCountAsEventsAndTheirOwnRowsDo() throws Exception {
    for (String range : RANGES) {
      for (String search : SEARCHES) {
        String query = range + search;
        String events = search("search index=ev " + query);
        assertThat(events).as(query).contains("result");
        assertThat(search("search index=bl " + query)).as(query).isEqualTo(events);
        // the block layout's row path: a command before the aggregation keeps it from counting
        String rows = query.replaceFirst("\\| ", "| eval x=1 | ");
        assertThat(search("search index=bl " + rows)).as(rows).isEqualTo(events);
      }
    }
    // a by-field no event has: no combination, no row (Splunk), counted or not
    for (String index : List.of("ev", "bl")) {
      assertThat(search("search index=" + index + " | stats count by level, nosuch")).isEmpty();
      assertThat(search("search index=" + index + " | stats count by nosuch, level")).isEmpty();
    }
  }

  @Test
  void countedBlocksAreNotDecoded() throws Exception {
    for (String search :
        List.of(
            "| stats count by level",
            "| top host",
            "| stats count by host",
            "level=warn | stats count",
            "sourcetype=tags level=info | stats count",
            "level IN (warn, error) | stats count by level",
            "level=warn | stats count by code",
            "NOT level=info | top code",
            "| stats count by level, code",
            "code>=500 | stats count by level, host")) {
      SearchStats counted = stats("search index=bl " + search);
      assertThat(counted.scanCosts().journalBlocks()).as(search).isZero();
    }
    assertThat(stats("search index=bl | stats count by level").eventsRead()).isEqualTo(3000);
    // tag is missing in some events: their blocks are read; blocks where every event has one are
    // not
    assertThat(stats("search index=bl | stats count by tag").scanCosts().journalBlocks())
        .isPositive();
    // a cut range reads the blocks it cuts
    assertThat(
            stats("search index=bl earliest=" + (START + 2000) + " | stats count by level")
                .scanCosts()
                .journalBlocks())
        .isPositive();
    String plan =
        SERVER
            .server()
            .search()
            .explain(
                SERVER
                    .server()
                    .search()
                    .plan("index=bl level=warn | stats count by level", null, null))
            .toString();
    assertThat(plan).contains("engine=index").contains("counted_from_block_values=true");
    for (String index : List.of("ev", "bl")) {
      String grouped =
          SERVER
              .server()
              .search()
              .explain(
                  SERVER
                      .server()
                      .search()
                      .plan("index=" + index + " | stats count by level, code", null, null))
              .toString();
      assertThat(grouped)
          .as(index)
          .contains("engine=index")
          .contains("counted_by_fields=[level, code]");
    }
  }

  /**
   * A page search that reads only counted index-time fields (held elsewhere: the block's value
   * counts and codes) decodes no journal block, though it is no count the blocks answer alone — the
   * scan's block runs decode a block only when a column reads its bytes (review-c, session 32: a
   * run decoded its block whatever the columns).
   */
  @Test
  void pagesReadingOnlyCountedFieldsDecodeNoBlock() throws Exception {
    for (String search :
        List.of(
            "| stats dc(level)",
            "| eval l=level | stats count by l",
            "| stats values(code) AS c by level",
            "| stats count by code")) {
      SearchStats read = stats("search index=bl " + search);
      assertThat(read.scanCosts().journalBlocks()).as(search).isZero();
    }
  }
}
