package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.EnvelopeBuilder;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code outputlookup} ending an event listing ({@link EventTable}) answers and writes the same
 * whatever the page size: the same answer rows, and the same table — the fields the events list in
 * first-named order, each row's value (its own, or its search-time value where another row lists
 * the field); the events' numbers written as sent (computed here) — over a real store of more
 * events than a page, with index-time fields in differing orders, some multivalued, key=value text
 * naming fields others hold at index time, and JSON objects.
 */
class EventTableTest {
  private static final String PASSWORD = "event-table-pw";
  private static final long SEED = new Random().nextLong();
  private static final int EVENTS = 2_600;

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    Random random = new Random(SEED);
    EnvelopeBuilder envelopes = new EnvelopeBuilder();
    for (int i = 0; i < EVENTS; i++) {
      String event =
          i % 13 == 0
              ? "{\"n\": " + i + ", \"status\": " + (200 + random.nextInt(3)) + "}"
              : "level="
                  + (random.nextBoolean() ? "INFO" : "WARN")
                  + " n="
                  + i
                  + (random.nextInt(5) == 0 ? " region=kv" + random.nextInt(3) : "")
                  + (random.nextInt(9) == 0 ? " team=t1 team=t2" : "")
                  // a field one early event holds at index time, later ones only in their text
                  + (i % 400 == 7 ? " rare=r" + i : "");
      String fields =
          i == 3
              ? ",\"fields\":{\"rare\":\"indexed\"}"
              : switch (random.nextInt(12)) {
                case 0 -> ",\"fields\":{\"region\":\"eu\"}";
                case 1 -> ",\"fields\":{\"team\":[\"a\",\"b\"],\"region\":\"us\"}";
                case 2 -> ",\"fields\":{\"region\":\"us\",\"zone\":\"z" + random.nextInt(2) + "\"}";
                default -> "";
              };
      envelopes.add(i, random.nextInt(3), event, fields);
    }
    TestServers.postEvents(server, TestServers.TOKEN, envelopes.body());
    RandomEventStore.uploadRegions(server, PASSWORD);
  }

  private static final List<String> WRITES =
      List.of(
          "* | outputlookup copy",
          "* | where n > 100 | head 1500 | outputlookup copy",
          "region=us OR zone=z1 | sort - n | outputlookup copy",
          "* | dedup region | outputlookup copy",
          "* | sort n | outputlookup copy",
          // after commands that change the events' fields: each row's fields as they left them
          "* | eval y=1 | outputlookup copy",
          "* | eval region=if(n%3==0, null(), \"r\".n), big=if(n>1000, n, null()) | outputlookup copy",
          "* | rex \"level=(?<lvl>\\w+)\" | fields - zone | head 2000 | outputlookup copy",
          "* | rename region AS reg | where n > 5 | outputlookup copy",
          "* | eventstats count AS c by region | eval d=c*2 | outputlookup copy",
          "* | fields - host | eval team=if(n%2==0, null(), team) | outputlookup copy",
          // followed by other commands: every row into the table, the answer as they leave it
          "* | outputlookup copy | where n > 100",
          "* | eval y=n%2 | outputlookup copy | where y=1 | head 700",
          "* | outputlookup copy | eval region=upper(region) | sort - n | head 1200",
          "* | rename team AS t | outputlookup copy | rex \"n=(?<d>\\d)\" | fields - zone",
          "* | outputlookup copy | eventstats count by region | dedup 3 region",
          // after a lookup without OUTPUT (its outputs: the table's columns but its keys)
          "* | lookup regions.csv region | outputlookup copy",
          "* | lookup regions.csv region AS team | where n > 10 | outputlookup copy | head 900",
          // after a command that changes _raw or sourcetype: a row's unlisted cells are still
          // extracted from its event's own text
          "* | eval _raw=upper(_raw) | outputlookup copy",
          "* | eval sourcetype=if(n%2==0, \"other\", null()), x=1 | where n > 4 | outputlookup copy",
          "* | rename _raw AS text | outputlookup copy | where n > 100",
          "* | eval _raw=\"x\" | lookup regions.csv region | outputlookup copy");

  @Test
  void answersAndWritesTheSamePagedAnyWay() throws Exception {
    Random sizes = new Random(SEED);
    for (String query : WRITES) {
      List<String> answer = rows(query, SearchService.PAGE_SIZE);
      List<String> table = rows("| inputlookup copy", SearchService.PAGE_SIZE);
      int pageSize = 1 + sizes.nextInt(300);
      String as = "%s in pages of %d (seed %d)".formatted(query, pageSize, SEED);
      assertThat(PageSizeAgreement.disagreement(answer, rows(query, pageSize))).as(as).isNull();
      assertThat(
              PageSizeAgreement.disagreement(
                  table, rows("| inputlookup copy", SearchService.PAGE_SIZE)))
          .as(as + ": the table")
          .isNull();
      assertThat(explain(query)).containsEntry("engine", "pages");
    }
  }

  /** The events' numbers go into the table as sent, newest first; the answer goes on after it. */
  @Test
  void writesTheEventsAsSent() throws Exception {
    List<String> numbers = new java.util.ArrayList<>();
    for (int n = EVENTS - 1; n >= 0; n--) {
      numbers.add(Integer.toString(n));
    }
    assertThat(
            EnginePages.cells(
                rows("* | table n, level | outputlookup copy", SearchService.PAGE_SIZE), "n"))
        .isEqualTo(numbers);
    assertThat(EnginePages.cells(rows("| inputlookup copy", SearchService.PAGE_SIZE), "n"))
        .isEqualTo(numbers);
    assertThat(
            EnginePages.cells(
                rows("* | table n | outputlookup copy | where n > 100", SearchService.PAGE_SIZE),
                "n"))
        .isEqualTo(numbers.subList(0, EVENTS - 101));
    assertThat(
            EnginePages.cells(
                rows("* | sort n | head 5 | table n | outputlookup copy", SearchService.PAGE_SIZE),
                "n"))
        .containsExactly("0", "1", "2", "3", "4");
    assertThat(EnginePages.cells(rows("| inputlookup copy", SearchService.PAGE_SIZE), "n"))
        .containsExactly("0", "1", "2", "3", "4");
  }

  /** The rows of a search's answer ({@link EnginePages#rows}) in pages of {@code pageSize}. */
  private static List<String> rows(String query, int pageSize) throws Exception {
    return EnginePages.rows(server, query, false, pageSize);
  }

  private static java.util.Map<String, Object> explain(String query) {
    return EnginePages.explain(server, query);
  }
}
