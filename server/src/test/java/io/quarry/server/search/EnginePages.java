package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.EnvelopeBuilder;
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
 * PluginOverEventsTest}, {@link RandomPipelineCensusTest} …) share: a real store of random events —
 * more than a page, with index-time fields or not (some multivalued), key=value text naming fields
 * other events hold at index time, JSON objects — whose texts the tests keep to compute answers
 * from, with a lookup over their regions; a search's answer written out row by row (or page by
 * page), in pages of a given size; and the property these tests hold the page engine to where no
 * second engine answers: the same rows whatever the page size ({@link #samePagedAnyWay}).
 */
final class EnginePages {
  /** Events {@link #loadRandomEvents} sends: more than two pages. */
  static final int EVENTS = 2_600;

  private EnginePages() {}

  /**
   * Sends {@link #EVENTS} random events drawn from {@code seed} over HEC; answers their texts, the
   * {@code n}th event's at {@code n} (its time the base plus {@code n} seconds).
   */
  static List<String> loadRandomEvents(QuarryServer server, long seed) throws Exception {
    Random random = new Random(seed);
    List<String> texts = new ArrayList<>(EVENTS);
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
                  + (random.nextInt(9) == 0 ? " team=t1 team=t2" : "");
      texts.add(event);
      String fields =
          switch (random.nextInt(12)) {
            case 0 -> ",\"fields\":{\"region\":\"eu\"}";
            case 1 -> ",\"fields\":{\"team\":[\"a\",\"b\"],\"region\":\"us\"}";
            case 2 -> ",\"fields\":{\"region\":\"us\",\"zone\":\"z" + random.nextInt(2) + "\"}";
            default -> "";
          };
      envelopes.add(i, random.nextInt(3), event, fields);
    }
    TestServers.postEvents(server, TestServers.TOKEN, envelopes.body());
    return List.copyOf(texts);
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
   * The pages of a search's answer, written out; {@code everyEventField}: every field of the
   * events, as a subsearch's.
   */
  static List<String> pages(QuarryServer server, String query, boolean everyEventField)
      throws Exception {
    List<String> written = new ArrayList<>();
    run(server, query, everyEventField, page -> written.add(write(page)));
    return written;
  }

  /**
   * The rows of a search's answer, each written as its non-null cells (name, type and values, in
   * column order, each ended by {@code \u0001}) — the answer as a user reads it, wherever the pages
   * part.
   */
  static List<String> rows(QuarryServer server, String query) throws Exception {
    return rows(server, query, false, SearchService.PAGE_SIZE);
  }

  /** As {@link #rows(QuarryServer, String, String)}, in pages of {@code pageSize} rows. */
  static List<String> rows(QuarryServer server, String query, boolean everyEventField, int pageSize)
      throws Exception {
    List<String> rows = new ArrayList<>();
    run(server, query, everyEventField, pageSize, page -> rows.addAll(rows(page)));
    return rows;
  }

  /** A page's rows as {@link #rows(QuarryServer, String, String)} writes them. */
  static List<String> rows(Page page) {
    List<String> rows = new ArrayList<>(page.positionCount());
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
    return rows;
  }

  /**
   * The rows of a search's answer on the page engine (the row engine refused), checked to agree
   * ({@link #disagreement}) with its rows in pages of a few rows and of a few hundred against pages
   * of 1,024 (the default): page boundaries fall elsewhere in each, so a stage that carries state
   * from page to page (a dedup's seen values, an overlay's groups, a plugin command's batches, a
   * listing's replayed changes) must carry it right. This is the property these tests hold the page
   * engine to where no second engine answers: the sizes are drawn from the query and {@code seed},
   * and named in a failure's message.
   */
  static List<String> samePagedAnyWay(
      QuarryServer server, String query, boolean everyEventField, long seed) throws Exception {
    List<String> whole = rows(server, query, everyEventField, SearchService.PAGE_SIZE);
    Random sizes = new Random(seed ^ query.hashCode());
    for (int pageSize : new int[] {1 + sizes.nextInt(7), 8 + sizes.nextInt(400)}) {
      List<String> paged = rows(server, query, everyEventField, pageSize);
      if (readsTheBatch(query)) {
        continue; // it runs paged so too; what it answers follows the page's rows
      }
      String disagreement = disagreement(query, whole, paged);
      assertThat(disagreement)
          .as(
              "%s%s in pages of %d rows against pages of %d (events seed %d)",
              query,
              everyEventField ? " (every event field)" : "",
              pageSize,
              SearchService.PAGE_SIZE,
              seed)
          .isNull();
    }
    return whole;
  }

  /**
   * Whether a search has a command that reads every field its batch lists — the batch being a page
   * — and makes values of them: {@code foreach *}, {@code transpose}, {@code format}, {@code join}
   * without fields. Over an event listing, which search-time fields a page lists follows the events
   * it holds, so such an answer moves with the page boundaries (a known gap, session 27): {@link
   * #samePagedAnyWay} runs it paged otherwise without comparing. Not {@code fillnull} without
   * fields since session 39: it fills the fields of its whole input and names those it wrote on
   * every row ({@code PluginListingPageCutTest}).
   */
  static boolean readsTheBatch(String query) {
    return READS_THE_BATCH.matcher(query).find();
  }

  private static final java.util.regex.Pattern READS_THE_BATCH =
      java.util.regex.Pattern.compile(
          "foreach \\*|\\| transpose|\\| format" + "|\\| join (?:type=\\w+ )?\\[");

  /**
   * Where two answers of one search in pages of different sizes ({@link #rows}) disagree, null
   * where they agree: the same number of rows, and row by row the same fields, each with the same
   * value. Not more, because some of an answer's layout follows the rows a page holds, so it moves
   * with the page boundaries: a page's column order and a column's type (the first-seen order of
   * its fields; a text column where another value of it is text — issue 21's one type per result
   * column is still open). Which fields a row lists does not (issue 21: a plain listing lists a
   * row's own fields, never one another row of its page made a column of). The golden files and the
   * hand-computed answers pin the layout at the default size.
   */
  static String disagreement(List<String> whole, List<String> paged) {
    return disagreement(whole, paged, true);
  }

  /**
   * As {@link #disagreement(List, List)} for the answers of {@code query}: every search's rows
   * compared with their fields since session 39 (an event among an {@code append}'s rows lists what
   * it lists alone, {@code AppendListingPageCutTest}; a plugin command rewriting fields in place
   * names what it wrote on every row, {@code PluginListingPageCutTest}).
   */
  static String disagreement(String query, List<String> whole, List<String> paged) {
    return disagreement(whole, paged, true);
  }

  private static String disagreement(List<String> whole, List<String> paged, boolean fields) {
    if (whole.size() != paged.size()) {
      return "%d rows against %d".formatted(whole.size(), paged.size());
    }
    for (int r = 0; r < whole.size(); r++) {
      java.util.Map<String, String> one = cellsOf(whole.get(r));
      java.util.Map<String, String> other = cellsOf(paged.get(r));
      if (fields && !one.keySet().equals(other.keySet())) {
        return "row %d: fields %s against %s%n  %s%n  %s"
            .formatted(r, one.keySet(), other.keySet(), whole.get(r), paged.get(r));
      }
      for (var cell : one.entrySet()) {
        String value = other.get(cell.getKey());
        if (value != null && !sameValues(value, cell.getValue())) {
          return "row %d: %s=%s against %s%n  %s%n  %s"
              .formatted(r, cell.getKey(), cell.getValue(), value, whole.get(r), paged.get(r));
        }
      }
    }
    return null;
  }

  /**
   * Whether two cells' values ({@code [a, b]}) are the same, a number the same whether a page typed
   * it whole or decimal ({@code 432} and {@code 432.0}: a column's type follows its page's values).
   */
  static boolean sameValues(String one, String other) {
    if (one.equals(other)) {
      return true;
    }
    String[] these = one.substring(1, one.length() - 1).split(", ", -1);
    String[] those = other.substring(1, other.length() - 1).split(", ", -1);
    if (these.length != those.length) {
      return false;
    }
    for (int i = 0; i < these.length; i++) {
      if (!these[i].equals(those[i]) && !sameNumber(these[i], those[i])) {
        return false;
      }
    }
    return true;
  }

  private static boolean sameNumber(String one, String other) {
    try {
      return Double.parseDouble(one) == Double.parseDouble(other);
    } catch (NumberFormatException notNumbers) {
      return false;
    }
  }

  /** A row of {@link #rows} as its cells' values by name, types left out. */
  private static java.util.Map<String, String> cellsOf(String row) {
    java.util.Map<String, String> cells = new java.util.TreeMap<>();
    for (String cell : row.split("\u0001")) {
      if (!cell.isEmpty()) {
        cells.put(cell.substring(0, cell.indexOf(':')), cell.substring(cell.indexOf('=') + 1));
      }
    }
    return cells;
  }

  /**
   * Each row of {@link #rows} as its cells' names and values in name order, types left out: the
   * answer of a search whose fields are named (an aggregation's, a table's) as far as it does not
   * depend on where the pages part.
   */
  static List<String> byName(List<String> rows) {
    List<String> named = new ArrayList<>(rows.size());
    for (String row : rows) {
      named.add(cellsOf(row).toString());
    }
    return named;
  }

  /**
   * The values of the cell {@code name} of each row of {@link #rows} that has one, in row order, as
   * the block wrote them ({@code [a, b]} for a multivalue, else the value).
   */
  static List<String> cells(List<String> rows, String name) {
    List<String> cells = new ArrayList<>();
    for (String row : rows) {
      for (String cell : row.split("\u0001")) {
        if (cell.startsWith(name + ":")) {
          String values = cell.substring(cell.indexOf('=') + 1);
          cells.add(
              values.startsWith("[") && !values.contains(", ")
                  ? values.substring(1, values.length() - 1)
                  : values);
        }
      }
    }
    return cells;
  }

  static void run(
      QuarryServer server,
      String query,
      boolean everyEventField,
      java.util.function.Consumer<Page> pages)
      throws Exception {
    run(server, query, everyEventField, SearchService.PAGE_SIZE, pages);
  }

  /** Runs a search in pages of {@code pageSize} rows. */
  static void run(
      QuarryServer server,
      String query,
      boolean everyEventField,
      int pageSize,
      java.util.function.Consumer<Page> pages)
      throws Exception {
    System.setProperty(SearchService.PAGE_SIZE_PROPERTY, Integer.toString(pageSize));
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
      System.clearProperty(SearchService.PAGE_SIZE_PROPERTY);
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
    private List<String> texts;

    RandomEventStore(String password) {
      this.password = password;
    }

    @Override
    public void beforeAll(org.junit.jupiter.api.extension.ExtensionContext context)
        throws Exception {
      directory = java.nio.file.Files.createTempDirectory("engine-pages");
      // -Dquarry.pages.events.compactionIdleMillis=T: the bucket compacted once idle for T ms
      // (however few its bytes), its segments swapped for a compact one while the class searches
      Long compactionIdle = Long.getLong("quarry.pages.events.compactionIdleMillis");
      server =
          compactionIdle == null
              ? TestServers.start(directory, password)
              : TestServers.start(
                  directory,
                  password,
                  settings ->
                      settings
                          .put("storage.compaction.idleMillis", compactionIdle)
                          .put("storage.compaction.idleMinBytes", 1L));
      texts = loadRandomEvents(server, seed);
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

    /** The events' texts as sent, the {@code n}th at {@code n}: what hand-computed answers read. */
    List<String> texts() {
      return texts;
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
