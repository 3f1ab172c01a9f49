package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats count by f} and {@code top f} over an index-time keyword field count its doc-values
 * ordinals instead of producing rows (and a leading {@code dedup f} skips values it has seen);
 * events whose value only search-time extraction finds still count, multivalues count once per
 * value, and the answers equal the row path's (the same aggregation behind an {@code eval}, which
 * keeps the shortcut off). Over the event layout ({@code format: events}); the block layout's
 * counts are {@link BlockValueCountTest}'s.
 */
class KeywordCountShortcutTest {
  private static final String PASSWORD = "count-test-password";

  @TempDir static Path root;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry =
        SearchTestServer.start(
            root,
            PASSWORD,
            settings ->
                settings
                    .put("sourcetypes", CountingEvents.shopSourcetype())
                    // the event layout's doc-values ordinals
                    .put("storage.format", "events"));
    quarry.loadRaw("shop", CountingEvents.shopLines() + "2026-01-07T10:00:00Z action=none\n");
    // access logs: status and clientip are index-time fields (numbers for status)
    quarry.loadRaw("access_combined", CountingEvents.accessLines());
  }

  private static String search(String query) throws Exception {
    return quarry.search(query);
  }

  @Test
  void countsEqualTheRowPath() throws Exception {
    String counted = search("sourcetype=shop | stats count by user");
    String rows = search("sourcetype=shop | eval x=1 | stats count by user");
    assertThat(counted).isEqualTo(rows);
    assertThat(counted)
        .contains("{\"user\":\"u0\",\"count\":\"429\"}")
        .contains("{\"user\":\"u6\",\"count\":\"428\"}");
    assertThat(search("sourcetype=shop | top user"))
        .isEqualTo(search("sourcetype=shop | eval x=1 | top user"));
    assertThat(search("sourcetype=shop user=u3 | stats count by user"))
        .contains("{\"user\":\"u3\",\"count\":\"429\"}");
  }

  /**
   * {@code stats count by f1, f2}: a document with one ordinal of each keyword field is counted by
   * its combination; a field some event has only at search time (user) or that has no ordinals
   * (status, a number; sourcetype) leaves those events to the rows — the row path's answer.
   */
  @Test
  void countsByCombinationEqualTheRowPath() throws Exception {
    for (String query :
        List.of(
            "sourcetype=access_combined | stats count by clientip, method",
            "sourcetype=access_combined | stats count by method, clientip, status",
            "sourcetype=access_combined clientip=10.0.1.* | stats count by clientip, method",
            "sourcetype=shop | stats count by user, sourcetype",
            "* | stats count by user, clientip",
            "* | stats count AS n by sourcetype, user")) {
      assertThat(search(query)).as(query).isEqualTo(search(query.replace(" | ", " | eval x=1 | ")));
    }
    // 10.0.(i % 3).(i % 11): 10.0.0.0 for i a multiple of 33 below 2,000, 61 of them, all GET
    assertThat(search("sourcetype=access_combined | stats count by clientip, method"))
        .contains("{\"clientip\":\"10.0.0.0\",\"method\":\"GET\",\"count\":\"61\"}");
    String byPair = "sourcetype=access_combined | stats count by clientip, method";
    assertThat(quarry.explain(byPair).toString())
        .contains("engine=index")
        .contains("counted_by_fields=[clientip, method]");
  }

  /**
   * The counted answers against tables computed here from how the events were written, not from
   * Quarry's row path: every (clientip, method) combination of the access log, and every (user,
   * sourcetype) of the shop lines (the one line without a user is not counted, as in Splunk).
   */
  @Test
  void countsByCombinationEqualTablesComputedFromTheWrittenEvents() throws Exception {
    Map<String, Long> access = new java.util.TreeMap<>();
    for (int i = 0; i < 2000; i++) {
      access.merge("10.0." + i % 3 + "." + i % 11 + "|GET", 1L, Long::sum);
    }
    assertThat(counts(search("sourcetype=access_combined | stats count by clientip, method"), 2))
        .isEqualTo(access);
    Map<String, Long> shop = new java.util.TreeMap<>();
    for (int i = 0; i < 3000; i++) {
      shop.merge("u" + i % 7 + "|shop", 1L, Long::sum);
    }
    assertThat(counts(search("sourcetype=shop | stats count by user, sourcetype"), 2))
        .isEqualTo(shop);
  }

  /** Each exported row's first {@code fields} values joined by "|", to its count. */
  private static Map<String, Long> counts(String export, int fields) {
    Map<String, Long> counts = new java.util.TreeMap<>();
    java.util.regex.Pattern value = java.util.regex.Pattern.compile("\"([^\"]*)\":\"([^\"]*)\"");
    for (String line : export.split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      java.util.regex.Matcher m = value.matcher(line);
      List<String> key = new java.util.ArrayList<>();
      long count = -1;
      while (m.find()) {
        if (m.group(1).equals("count")) {
          count = Long.parseLong(m.group(2));
        } else if (key.size() < fields) {
          key.add(m.group(2));
        }
      }
      assertThat(count).as(line).isPositive();
      assertThat(counts.put(String.join("|", key), count)).as("repeated row " + line).isNull();
    }
    return counts;
  }

  /** The events a search read from storage. */
  private static long eventsRead(String query) throws Exception {
    return quarry.run(query).eventsRead();
  }

  /**
   * An event's index-time value is its value, so {@code f=v} looks in the raw text only of events
   * without one: where every event has one, the term lookup alone answers and nothing is read
   * (before, every access event with a 404 byte count or path was read to be rejected).
   */
  @Test
  void equalityChecksTheTextOnlyOfEventsWithoutAnIndexTimeValue() throws Exception {
    // where compares every event's value without the term index: an independent answer
    for (List<String> searchAndWhere :
        List.of(
            List.of("sourcetype=access_combined status=404", "status=404"),
            List.of("sourcetype=access_combined status=500 bytes=404", "status=500 AND bytes=404"),
            List.of("sourcetype=shop user=u3", "user=\"u3\""),
            List.of("sourcetype=shop (user=u1 OR user=u2)", "user=\"u1\" OR user=\"u2\""))) {
      String search = searchAndWhere.get(0);
      String where = search.substring(0, search.indexOf(' ')) + " | where " + searchAndWhere.get(1);
      for (String stats : List.of("stats count", "stats count by clientip, user")) {
        assertThat(search(search + " | " + stats))
            .as(search)
            .isEqualTo(search(where + " | " + stats));
      }
    }
    // paths and byte counts hold the token 404 in events whose status is not 404: none is read
    assertThat(eventsRead("sourcetype=access_combined status=404 | stats count")).isZero();
    // 600 shop events have only a search-time user; those with u3 in their text are checked
    assertThat(eventsRead("sourcetype=shop user=u3 | stats count")).isEqualTo(86);
  }

  @Test
  void dedupSkipsSeenValuesWithTheRowPathsAnswer() throws Exception {
    for (String query :
        List.of(
            "sourcetype=access_combined | dedup clientip | table _time, clientip, status",
            "sourcetype=access_combined status=404 | dedup clientip | table _time, clientip",
            "sourcetype=access_combined | dedup status | table _time, status, bytes",
            "sourcetype=shop | dedup user | table _time, user, _raw", // some only at search time
            "sourcetype=shop | dedup keepempty=true user | table user, _raw")) {
      String skipped = search(query);
      String rows = search(query.replace("| dedup", "| eval x=1 | dedup"));
      assertThat(skipped).as(query).isEqualTo(rows);
    }
    assertThat(search("sourcetype=access_combined | dedup clientip | stats count"))
        .contains("\"count\":\"33\""); // 3 × 11 addresses
  }

  @Test
  void documentCountsEqualTheRowPath() throws Exception {
    for (String search :
        List.of(
            "sourcetype=shop",
            "sourcetype=shop user=u3", // sure: index-time u3; checked: u3 in the raw text
            "sourcetype=shop NOT user=u3",
            "sourcetype=shop (user=u1 OR user=u2)",
            "sourcetype=shop (user=u1 OR view)",
            "sourcetype=shop view",
            "sourcetype=shop nothing-matches",
            "sourcetype=shop action=view", // search-time field: not exact, the row path runs
            "sourcetype=access_combined status=404",
            "sourcetype=access_combined status>=500",
            "sourcetype=access_combined status>=400 status<500",
            "sourcetype=access_combined NOT status=200",
            "sourcetype=access_combined (status=301 OR clientip=10.0.1.5)")) {
      for (String stats :
          List.of(
              "stats count",
              "stats count AS n, count",
              "stats count by clientip",
              "top user",
              "timechart span=5m count by status",
              "timechart span=1m limit=2 count by clientip",
              "timechart count by user")) {
        String counted = search(search + " | " + stats);
        assertThat(counted).as(search).isEqualTo(search(search + " | eval x=1 | " + stats));
      }
    }
    assertThat(search("sourcetype=shop | stats count")).contains("\"count\":\"3001\"");
    assertThat(search("sourcetype=shop view | stats count")).contains("\"count\":\"3000\"");
    assertThat(search("sourcetype=shop nothing-matches | stats count")).contains("\"count\":\"0\"");
  }
}
