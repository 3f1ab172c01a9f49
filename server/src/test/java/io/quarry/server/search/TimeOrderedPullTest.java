package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The time-ordered search pulled like the batch one (issue 21): its scan is the source of the
 * stages' driver, read a page at a time, so a {@code head 10} reads ten events and decodes at most
 * the head block of each segment it touches; listings in both layouts give the newest events first,
 * as written; a search cancelled while its pages are pulled stops with a cancellation; over no
 * events an aggregation after a head answers 0; a written table takes every row while the stages
 * after it stop once their answer is complete; a listing under a head takes only the head's rows.
 * One real server, the same events in an index of each layout.
 */
class TimeOrderedPullTest {
  private static final String PASSWORD = "time-ordered-password";
  private static final String TOKEN = "time-ordered-token";
  private static final long START = 1767780000L; // 2026-01-07T10:00:00Z
  private static final int EVENTS = 3000;

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    for (String index : List.of("ev", "bl")) {
      for (int from = 0; from < EVENTS; from += 250) {
        post(index, from, from + 250);
      }
    }
  }

  /** Events {@code from} to {@code to}: event i at START + 7 i seconds, level by i. */
  private static void post(String index, int from, int to) throws Exception {
    StringBuilder body = new StringBuilder();
    for (int i = from; i < to; i++) {
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h%d\",\"sourcetype\":\"st\",\"index\":\"%s\","
                  + "\"event\":\"event %d level %s\",\"fields\":{\"level\":\"%s\"}}%n",
              START + i * 7L, i % 3, index, i, level(i), level(i)));
    }
    TestServers.postEvents(server, TOKEN, body.toString());
  }

  private static String level(int i) {
    return i % 5 == 0 ? "warn" : "info";
  }

  private static SearchStats stats(String query) throws Exception {
    return server.search().run(query, server.search().plan(query, null, null), page -> {});
  }

  /** The {@code _raw} of each result, in order. */
  private static List<String> raws(String query) throws Exception {
    return results(query, result -> result.path("_raw").asText());
  }

  /** Each result as {@code cells} reads it, in order. */
  private static List<String> results(
      String query, java.util.function.Function<JsonNode, String> cells) throws Exception {
    return TestServers.exportRows(server, PASSWORD, query).stream().map(cells).toList();
  }

  /**
   * The newest {@code count} events' {@code _raw} whose number passes {@code kept}, newest first.
   */
  private static List<String> newest(int count, java.util.function.IntPredicate kept) {
    List<String> raws = new ArrayList<>();
    for (int i = EVENTS - 1; i >= 0 && raws.size() < count; i--) {
      if (kept.test(i)) {
        raws.add("event " + i + " level " + level(i));
      }
    }
    return raws;
  }

  @Test
  void aHeadReadsItsEventsAndDecodesAtMostOneBlockPerSegment() throws Exception {
    for (String index : List.of("ev", "bl")) {
      String query = "search index=" + index + " | head 10";
      assertThat(raws(query)).as(query).isEqualTo(newest(10, i -> true));
      SearchStats head = stats(query);
      assertThat(head.eventsRead()).as(query).isEqualTo(10);
      assertThat(head.scanCosts().journalBlocks()).as(query).isLessThanOrEqualTo(head.segments());
    }
    // a filter the blocks decide per event: the pages pulled until ten passed, no further
    String warns = "search index=bl level=warn | head 10";
    assertThat(raws(warns)).isEqualTo(newest(10, i -> i % 5 == 0));
    assertThat(stats(warns).eventsRead()).isLessThan(EVENTS / 2);
  }

  /**
   * An aggregation after a {@code head} (time-ordered: the head needs the events newest first) is
   * one pulled chain with the stages before it: the head's rows stop the scan, and the stages'
   * stats count the aggregation's input and answer. The newest 25 events are 2975 … 2999, of which
   * 2975, 2980, 2985, 2990 and 2995 are warn.
   */
  @Test
  void anAggregationAfterAHeadIsOneChainThatStopsTheScan() throws Exception {
    for (String index : List.of("ev", "bl")) {
      String query = "search index=" + index + " | head 25 | stats count by level | head 5";
      assertThat(results(query, r -> r.path("level").asText() + " " + r.path("count").asText()))
          .as(query)
          .containsExactly("info 20", "warn 5");
      SearchStats stats = stats(query);
      assertThat(stats.eventsRead()).as(query).isEqualTo(25);
      assertThat(stats.stages())
          .as(query)
          .extracting(s -> s.name() + " " + s.rowsIn() + "->" + s.rowsOut())
          .containsExactly("head 25->25", "stats 25->2", "head 2->2");
    }
  }

  @Test
  void listingsComeNewestFirstInBothLayouts() throws Exception {
    for (String index : List.of("ev", "bl")) {
      for (String query :
          List.of(
              "search index=" + index,
              "search index=" + index + " | head 700",
              "search index=" + index + " level=warn | head 333",
              "search index=" + index + " earliest=" + (START + 7000) + " | head 1",
              "search index=" + index + " | eval n=1 | head 1500 | table _raw")) {
        List<String> expected =
            query.contains("level=warn")
                ? newest(333, i -> i % 5 == 0)
                : query.contains("earliest=")
                    ? newest(1, i -> true)
                    : query.contains("head 700")
                        ? newest(700, i -> true)
                        : query.contains("head 1500")
                            ? newest(1500, i -> true)
                            : newest(EVENTS, i -> true);
        assertThat(raws(query)).as(query).isEqualTo(expected);
      }
    }
  }

  @Test
  void aSearchCancelledWhileItsPagesArePulledStops() throws Exception {
    for (String index : List.of("ev", "bl")) {
      String query = "search index=" + index + " | eval n=1";
      SearchControl control = new SearchControl();
      long[] rows = {0};
      assertThatThrownBy(
              () ->
                  server
                      .search()
                      .run(
                          query,
                          server.search().plan(query, null, null),
                          Duration.ofMinutes(1),
                          control,
                          page -> {
                            rows[0] += page.positionCount();
                            control.cancel(); // the client went away after the first page
                          }))
          .as(query)
          .isNotNull();
      assertThat(control.cancelled()).isTrue();
      assertThat(rows[0]).as(query).isPositive().isLessThan(EVENTS);
    }
  }

  private static String stages(String query) throws Exception {
    return stats(query).stages().stream()
        .map(s -> s.name() + " " + s.rowsIn() + "->" + s.rowsOut())
        .toList()
        .toString();
  }

  @Test
  void anAggregationAfterAHeadOverNoEventsAnswersZero() throws Exception {
    for (String query :
        List.of(
            "search index=ev earliest=+1d | head 5 | stats count",
            "search index=nosuch | head 5 | stats count",
            "search index=ev nosuchword | head 5 | stats count")) {
      assertThat(results(query, r -> r.path("count").asText()))
          .as(query + " " + stages(query))
          .containsExactly("0");
    }
  }

  /** A written table takes every row the heads before it let through, whatever comes after it. */
  @Test
  void aWrittenTableTakesEveryRowWithAHeadAfterIt() throws Exception {
    for (String index : List.of("ev", "bl")) {
      String write = "search index=" + index + " | head 100 | outputlookup w" + index + " | head 3";
      assertThat(results(write, r -> r.path("_raw").asText())).as(write).hasSize(3);
      String read = "| inputlookup w" + index + " | stats count";
      assertThat(results(read, r -> r.path("count").asText())).as(read).containsExactly("100");
    }
  }

  /**
   * The commands after a written table are given no more rows once their answer is complete (the
   * head after them has its rows), while the table still takes every event.
   */
  @Test
  void theStagesAfterAWrittenTableStopOnceTheirAnswerIsComplete() throws Exception {
    String query = "search index=ev | outputlookup all | eval k=1 | head 5";
    assertThat(results(query, r -> r.path("k").asText())).as(query).hasSize(5);
    String read = "| inputlookup all | stats count";
    assertThat(results(read, r -> r.path("count").asText())).containsExactly("3000");
    SearchStats stats = stats(query);
    assertThat(stats.stages())
        .as(stages(query))
        .filteredOn(s -> s.name().equals("eval"))
        .singleElement()
        .satisfies(s -> assertThat(s.rowsIn()).isLessThan(EVENTS));
  }

  /**
   * A listing whose pages go on to other commands before a {@code head 5} — a plugin command's
   * batches ({@link PluginOverEvents}: one run, two runs), a wildcard rename's ({@link
   * RenameOverEvents}), the every-field pages of {@code table *} — takes the five rows the head can
   * use, not a page of 1,024 ({@link EventListings#batches}): the scan reads five events (1,025
   * before) and the answer is the newest five.
   */
  @Test
  void aListingUnderAHeadTakesTheHeadsRowsAndTheScanStops() throws Exception {
    for (String index : List.of("ev", "bl")) {
      for (String tail :
          List.of(
              "fillnull value=0 level | head 5",
              "mvexpand level | head 5",
              "eval m=1 | mvexpand level | eval o=2 | fillnull value=1 o | head 5",
              "table * | head 5",
              "rename l* AS z* | head 5")) {
        String query = "search index=" + index + " | " + tail;
        assertThat(raws(query)).as(query).isEqualTo(newest(5, i -> true));
        SearchStats stats = stats(query);
        assertThat(stats.eventsRead()).as(stages(query)).isEqualTo(5);
        assertThat(stats.stages().getLast().rowsIn()).as(stages(query)).isEqualTo(5);
      }
    }
  }
}
