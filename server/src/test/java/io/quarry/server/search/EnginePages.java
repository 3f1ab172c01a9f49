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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * What the event-listing tests ({@link EventListingTest}, {@link EventOverlaysTest}, {@link
 * PluginOverEventsTest}, {@link EventTableTest}) share: a real store of random events — more than a
 * page, with index-time fields or not (some multivalued), key=value text naming fields other events
 * hold at index time, JSON objects — with a lookup over their regions, and a search's answer pages
 * written out (each page's columns and types, then its rows) under a given engine, to compare the
 * page engine's listing with the row engine's page by page.
 */
final class EnginePages {
  /** Events {@link #loadRandomEvents} sends: more than two pages. */
  static final int EVENTS = 2_600;

  private EnginePages() {}

  /** Sends {@link #EVENTS} random events drawn from {@code seed} over HEC. */
  static void loadRandomEvents(QuarryServer server, long seed) throws Exception {
    Random random = new Random(seed);
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

  /** Uploads {@code regions.csv}: two rows for kv1, empty values, and none for us or kv2. */
  static void uploadRegions(QuarryServer server, String password) throws Exception {
    HttpResponse<String> uploaded =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/lookups/regions.csv"))
                    .header("Authorization", TestServers.basic(password))
                    .PUT(
                        HttpRequest.BodyPublishers.ofString(
                            "region,label,zone\neu,Europe,z9\nkv0,zero,\nkv1,one,z1\nkv1,uno,\n"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(uploaded.statusCode()).as(uploaded.body()).isLessThan(300);
  }

  /**
   * The pages of a search's answer under {@code engine}, written out; {@code everyEventField}:
   * every field of the events, as a subsearch's.
   */
  static List<String> pages(
      QuarryServer server, String query, String engine, boolean everyEventField) throws Exception {
    List<String> written = new ArrayList<>();
    run(server, query, engine, everyEventField, page -> written.add(write(page)));
    return written;
  }

  /**
   * The rows of a search's answer under {@code engine}, each written as its non-null cells (name,
   * type and values, in column order, each ended by {@code \u0001}) — the answer as a user reads
   * it, wherever the pages part.
   */
  static List<String> rows(QuarryServer server, String query, String engine) throws Exception {
    List<String> rows = new ArrayList<>();
    run(
        server,
        query,
        engine,
        false,
        page -> {
          for (int p = 0; p < page.positionCount(); p++) {
            StringBuilder row = new StringBuilder();
            for (int c = 0; c < page.blocks().size(); c++) {
              Block block = page.block(c);
              if (!block.isNull(p)) {
                var column = page.schema().columns().get(c);
                row.append(column.name()).append(':').append(column.type());
                row.append('=').append(block.getValues(p)).append('\u0001');
              }
            }
            rows.add(row.toString());
          }
        });
    return rows;
  }

  /**
   * Each row of {@link #rows} with its cells in name order: the answer with the column order left
   * out. Where the row engine's collector orders columns by the field names rows list, null or not
   * (after {@code fields a, b, c} a row lists all three), a page says only which cells hold values,
   * so a stage that re-pages rows after commands other than {@code table}/{@code fields} can order
   * a column some rows leave empty later than the row engine does ({@link RandomPipelineCensusTest}
   * lists such differences apart, {@link EveryFieldAfterChangesTest} leaves them out for a field
   * set after {@code transaction}).
   */
  static List<String> cellsByName(List<String> rows) {
    return rows.stream()
        .map(row -> java.util.Arrays.stream(row.split("\u0001")).sorted().toList().toString())
        .toList();
  }

  static void run(
      QuarryServer server,
      String query,
      String engine,
      boolean everyEventField,
      java.util.function.Consumer<Page> pages)
      throws Exception {
    String before = System.getProperty(PageBatch.ENGINE_PROPERTY);
    System.setProperty(PageBatch.ENGINE_PROPERTY, engine);
    try {
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
              pages::accept);
    } finally {
      if (before == null) {
        System.clearProperty(PageBatch.ENGINE_PROPERTY);
      } else {
        System.setProperty(PageBatch.ENGINE_PROPERTY, before);
      }
    }
  }

  /** The plan {@code explain} prints for a search. */
  static java.util.Map<String, Object> explain(QuarryServer server, String query) {
    return server.search().explain(server.search().plan(query, null, null));
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

  /**
   * A real server over {@link #EVENTS} random events ({@link #loadRandomEvents}) and the {@code
   * regions.csv} lookup, started once for a test class ({@code @RegisterExtension static}) in a
   * directory of its own, and closed after it.
   */
  static final class RandomEventStore
      implements org.junit.jupiter.api.extension.BeforeAllCallback,
          org.junit.jupiter.api.extension.AfterAllCallback {
    private final String password;
    // -Dquarry.pages.events.seed=S: the events of an earlier run (a census's before and after)
    private final long seed =
        Long.getLong("quarry.pages.events.seed", new java.util.Random().nextLong());
    private java.nio.file.Path directory;
    private QuarryServer server;

    RandomEventStore(String password) {
      this.password = password;
    }

    @Override
    public void beforeAll(org.junit.jupiter.api.extension.ExtensionContext context)
        throws Exception {
      directory = java.nio.file.Files.createTempDirectory("engine-pages");
      server = TestServers.start(directory, password);
      loadRandomEvents(server, seed);
      uploadRegions(server, password);
    }

    @Override
    public void afterAll(org.junit.jupiter.api.extension.ExtensionContext context)
        throws Exception {
      try {
        server.close();
      } finally {
        org.apache.lucene.util.IOUtils.rm(directory);
      }
    }

    QuarryServer server() {
      return server;
    }

    /** The seed of the events, for a failure's message. */
    long seed() {
      return seed;
    }

    String password() {
      return password;
    }
  }
}
