package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code outputlookup} ending an event listing ({@link EventTable}) answers and writes as the row
 * engine: the same answer pages, and the same table — the fields the events list in first-named
 * order, each row's value (its own, or its search-time value where another row lists the field) —
 * over a real store of more events than a page, with index-time fields in differing orders, some
 * multivalued, key=value text naming fields others hold at index time, and JSON objects.
 */
class EventTableTest {
  private static final String PASSWORD = "event-table-pw";
  private static final long SEED = new Random().nextLong();
  private static final int EVENTS = 2_600;

  @TempDir static Path dataDirectory;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    Random random = new Random(SEED);
    StringBuilder envelopes = new StringBuilder();
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
      envelopes
          .append("{\"time\":")
          .append(1_767_225_600 + i)
          .append(",\"host\":\"h")
          .append(random.nextInt(3))
          .append("\",\"sourcetype\":\"app\",\"event\":")
          .append(com.fasterxml.jackson.databind.node.TextNode.valueOf(event))
          .append(fields)
          .append("}\n");
    }
    HttpResponse<String> sent =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
                    .header("Authorization", "Splunk " + TestServers.TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofString(envelopes.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
    EnginePages.uploadRegions(server, PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
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
  void answersAndWritesAsTheRowEngine() throws Exception {
    for (String query : WRITES) {
      List<String> onRows = pages(query, "rows");
      List<String> rowTable = pages("| inputlookup copy", "rows");
      assertThat(pages(query, PageBatch.PAGES_ONLY))
          .as(query + " (seed " + SEED + ")")
          .isEqualTo(onRows);
      assertThat(pages("| inputlookup copy", "rows"))
          .as(query + ": the table (seed " + SEED + ")")
          .isEqualTo(rowTable);
      assertThat(explain(query)).containsEntry("engine", "pages");
    }
  }

  /** The pages of a search's answer, written out: each page's columns and types, then its rows. */
  private static List<String> pages(String query, String engine) throws Exception {
    return pages(query, engine, false);
  }

  /** As above; {@code everyEventField}: every field of the events, as a subsearch's. */
  private static List<String> pages(String query, String engine, boolean everyEventField)
      throws Exception {
    return EnginePages.pages(server, query, engine, everyEventField);
  }

  private static java.util.Map<String, Object> explain(String query) {
    return EnginePages.explain(server, query);
  }
}
