package io.quarry.server.search;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.Page;
import io.quarry.server.QuarryServer;
import java.util.ArrayList;
import java.util.List;

/**
 * How the event-listing tests ({@link EventListingTest}, {@link EventOverlaysTest}, {@link
 * PluginOverEventsTest}, {@link RandomPipelineCensusTest} …) read a search's answer: run on the
 * server's page engine in pages of a given size, written out row by row (or page by page), its
 * cells by name, and the plan {@code explain} prints. The store they search is a {@link
 * RandomEventStore}; the property they hold the page engine to, the same rows whatever the page
 * size, is {@link PageSizeAgreement}'s.
 */
final class EnginePages {
  private EnginePages() {}

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

  /** A row of {@link #rows} as its cells' values by name, types left out. */
  static java.util.Map<String, String> cellsOf(String row) {
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
}
