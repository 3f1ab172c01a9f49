package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.MakeResultsCommand;
import io.quarry.ql.exec.LookupPages;
import io.quarry.ql.exec.LookupTable;
import io.quarry.ql.exec.MakeResultsPages;
import io.quarry.ql.parser.Position;
import io.quarry.server.RunningServer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Generators' searches on pages: {@code makeresults} and {@code inputlookup} made straight as pages
 * ({@link MakeResultsPages}, {@link LookupPages}) against pages computed here, and the commands
 * after them, {@code appendpipe}'s own among them.
 */
class GeneratorPagesSearchTest {
  private static final String PASSWORD = "generator-pages-pw";

  @RegisterExtension static final RunningServer SERVER = new RunningServer(PASSWORD);

  @Test
  void makeResultsThroughPageCommands() throws Exception {
    String query = "| makeresults count=3 annotate=true | eval n=1 | where n=1 | table _time, n";
    assertThat(run(query).rows()).isEqualTo(3);
  }

  @Test
  void aHeadAfterAGeneratorMakesOnlyThePagesItReads() throws Exception {
    // the generator is a pulled source: a satisfied head finishes it, so one page is made (the
    // search's matched count is the rows the generator made), not 100000 rows
    SearchStats head = run("| makeresults count=100000 | head 3");
    assertThat(head.rows()).isEqualTo(3);
    assertThat(head.eventsMatched()).isEqualTo(Math.min(100_000, SearchService.pageSize()));
    SearchStats all = run("| makeresults count=100000 | stats count");
    assertThat(all.eventsMatched()).isEqualTo(100_000);
  }

  @Test
  void appendpipeRunsItsCommandsOnPages() throws Exception {
    // appendpipe's own commands run on pages, a bare word among them too (its rows are made from
    // pages: no term matches them)
    for (String query :
        List.of(
            "| makeresults count=2 | eval u=1 | appendpipe [where u=1 | eval u=2]",
            "| makeresults count=2 | eval u=1 | appendpipe [search x OR u=1]",
            "| makeresults count=2 | eval u=1 | append [| makeresults | eval v=1]"
                + " | appendpipe [stats count by v]")) {
      // two rows made, then appendpipe's rows: two of where, two of u=1 (no term matches a made
      // row), one group of v (the appended row's)
      assertThat(run(query).rows()).as(query).isEqualTo(4);
    }
  }

  @Test
  void makeResultsPagesAsComputedHere() {
    Instant now = Instant.parse("2026-01-05T10:11:12.345678Z");
    Random random = new Random(7);
    for (int round = 0; round < 40; round++) {
      MakeResultsCommand make =
          new MakeResultsCommand(
              1 + random.nextInt(3000), random.nextBoolean(), new Position(0, 1, 1));
      int pageSize = 1 + random.nextInt(1100);
      List<Page> pages = new ArrayList<>();
      new MakeResultsPages(make, now, pageSize).forEachRemaining(pages::add);
      // each page: _time (the search's now, microseconds), annotated Splunk's empty fields and
      // splunk_server
      List<io.quarry.plugin.api.data.Schema.Column> columns = new ArrayList<>();
      columns.add(new io.quarry.plugin.api.data.Schema.Column("_time", DataType.TIMESTAMP));
      List<Object> row = new ArrayList<>();
      row.add(List.of("Long:" + 1_767_607_872_345_678L));
      if (make.annotate()) {
        for (String name : List.of("_raw", "host", "source", "sourcetype", "splunk_server")) {
          columns.add(new io.quarry.plugin.api.data.Schema.Column(name, DataType.STRING));
          row.add(List.of("String:" + (name.equals("splunk_server") ? "quarry" : "")));
        }
      }
      List<List<Object>> expected = new ArrayList<>();
      for (long made = 0; made < make.count(); made += pageSize) {
        expected.add(List.of(columns));
        for (long p = made; p < Math.min(make.count(), made + pageSize); p++) {
          expected.add(row);
        }
      }
      assertThat(table(pages)).as("%s, pages of %d", make, pageSize).isEqualTo(expected);
    }
  }

  @Test
  void lookupPagesAsComputedHere() {
    Random random = new Random(11);
    for (int round = 0; round < 40; round++) {
      int width = 1 + random.nextInt(5);
      List<String> columns = new ArrayList<>();
      for (int c = 0; c < width; c++) {
        columns.add("c" + c);
      }
      List<List<String>> cells = new ArrayList<>();
      int height = random.nextInt(2500);
      for (int r = 0; r < height; r++) {
        List<String> row = new ArrayList<>();
        for (int c = 0; c < width; c++) {
          row.add(
              switch (random.nextInt(4)) {
                case 0 -> "";
                case 1 -> Integer.toString(random.nextInt(100));
                case 2 -> random.nextInt(10) / 4.0 + "";
                default -> "v" + random.nextInt(5);
              });
        }
        cells.add(row);
      }
      LookupTable table = new LookupTable(columns, cells);
      int pageSize = 1 + random.nextInt(1100);
      List<Page> pages = new ArrayList<>();
      new LookupPages(table, pageSize).forEachRemaining(pages::add);
      // each page: a text column for each column some row of it has a non-empty cell of, in
      // first-seen order; an empty cell a null
      List<List<Object>> expected = new ArrayList<>();
      for (int from = 0; from < height; from += pageSize) {
        List<List<String>> rows = cells.subList(from, Math.min(height, from + pageSize));
        java.util.Set<Integer> present = new java.util.LinkedHashSet<>();
        for (List<String> row : rows) {
          for (int c = 0; c < width; c++) {
            if (!row.get(c).isEmpty()) {
              present.add(c);
            }
          }
        }
        List<io.quarry.plugin.api.data.Schema.Column> schema = new ArrayList<>();
        for (int c : present) {
          schema.add(new io.quarry.plugin.api.data.Schema.Column("c" + c, DataType.STRING));
        }
        expected.add(List.of(schema));
        for (List<String> row : rows) {
          List<Object> typed = new ArrayList<>();
          for (int c : present) {
            typed.add(row.get(c).isEmpty() ? List.of() : List.of("String:" + row.get(c)));
          }
          expected.add(typed);
        }
      }
      assertThat(table(pages)).as("%d rows, pages of %d", height, pageSize).isEqualTo(expected);
    }
    assertThat(new LookupPages(null, 10).hasNext()).isFalse(); // deleted since it was planned
  }

  /** Every page's schema and typed values, position by position. */
  private static List<List<Object>> table(List<Page> pages) {
    List<List<Object>> table = new ArrayList<>();
    for (Page page : pages) {
      table.add(List.of(page.schema().columns()));
      for (int p = 0; p < page.positionCount(); p++) {
        List<Object> row = new ArrayList<>();
        for (int c = 0; c < page.schema().size(); c++) {
          List<String> typed = new ArrayList<>();
          for (Object value : page.block(c).getValues(p)) {
            typed.add(value.getClass().getSimpleName() + ":" + value);
          }
          row.add(typed);
        }
        table.add(row);
      }
    }
    return table;
  }

  private static SearchStats run(String query) throws Exception {
    return SERVER
        .server()
        .search()
        .run(query, SERVER.server().search().plan(query, null, null), page -> {});
  }
}
