package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event listing ending in a plugin command ({@link PluginOverEvents}) gives the pages the row
 * engine gives — page by page: the same rows, the same columns in the same order, the same types —
 * over a real store of more events than the row adapter's batch, whose events have index-time
 * fields or not (some multivalued), key=value text, and JSON objects: built-in plugin commands that
 * read every field ({@code fillnull}), named fields, run centrally ({@code accum}, {@code
 * filldown}), filter ({@code regex}) or make several rows of one ({@code mvexpand}), after commands
 * that keep the events.
 */
class PluginOverEventsTest {
  private static final String PASSWORD = "plugin-over-events-pw";
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
                  + (random.nextInt(9) == 0 ? " team=t1 team=t2" : "");
      String fields =
          switch (random.nextInt(12)) {
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
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static final List<String> PLUGINS =
      List.of(
          "* | fillnull value=0",
          "* | fillnull",
          "* | where n > 100 | fillnull value=none",
          "* | sort - n | head 1500 | fillnull value=X region zone",
          "* | convert num(n) AS nn",
          "* | mvexpand team",
          "* | rangemap field=n low=0-1000 high=1001-3000",
          "* | strcat level \"-\" host lh",
          "* | replace WARN WITH W IN level",
          "* | accum n AS total",
          "* | filldown region",
          "* | nomv team",
          "* | regex _raw=\"level=W\"",
          "region=us | dedup 2 host | fillnull value=-",
          // several plugin commands, each laid over what the one before left
          "* | fillnull value=0 | convert num(n) AS nn",
          "* | replace WARN WITH W IN level | strcat level \"/\" host lh | mvexpand team");

  @Test
  void pagesAsTheRowEngine() throws Exception {
    for (String query : PLUGINS) {
      assertThat(pages(query, PageBatch.PAGES_ONLY))
          .as(query + " (seed " + SEED + ")")
          .isEqualTo(pages(query, "rows"));
    }
  }

  @Test
  void runsOnPages() throws Exception {
    for (String query : PLUGINS) {
      assertThat(explain(query))
          .as(query)
          .containsEntry("engine", "pages")
          .containsEntry("page_source", "every_field");
    }
    // a command that makes rows of its own, or one after the plugin, still runs on rows
    assertThat(explain("* | transpose")).containsEntry("engine", "rows");
    assertThat(explain("* | fillnull | eval x=1")).containsEntry("engine", "rows");
    // a later one reading every field would take the overlay rows' columns in their order
    assertThat(explain("* | convert num(n) AS nn | fillnull")).containsEntry("engine", "rows");
  }

  /** The pages of a search's answer, written out: each page's columns and types, then its rows. */
  private static List<String> pages(String query, String engine) throws Exception {
    return pages(query, engine, false);
  }

  /** As above; {@code everyEventField}: every field of the events, as a subsearch's. */
  private static List<String> pages(String query, String engine, boolean everyEventField)
      throws Exception {
    String before = System.getProperty(PageBatch.ENGINE_PROPERTY);
    System.setProperty(PageBatch.ENGINE_PROPERTY, engine);
    try {
      List<String> written = new ArrayList<>();
      SearchControl control = new SearchControl();
      if (everyEventField) {
        control.everyEventField();
      }
      server
          .search()
          .run(
              query,
              server.search().plan(query, null, null),
              java.time.Duration.ofMinutes(1),
              control,
              page -> written.add(write(page)));
      return written;
    } finally {
      if (before == null) {
        System.clearProperty(PageBatch.ENGINE_PROPERTY);
      } else {
        System.setProperty(PageBatch.ENGINE_PROPERTY, before);
      }
    }
  }

  private static String write(Page page) {
    StringBuilder out = new StringBuilder();
    out.append(page.positionCount()).append(" rows ").append(page.schema().columns()).append('\n');
    for (int p = 0; p < page.positionCount(); p++) {
      for (Block block : page.blocks()) {
        out.append(block.getValues(p)).append(" | ");
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static java.util.Map<String, Object> explain(String query) {
    return server.search().explain(server.search().plan(query, null, null));
  }
}
