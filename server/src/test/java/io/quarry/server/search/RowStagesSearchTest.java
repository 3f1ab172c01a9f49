package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.MakeResultsCommand;
import io.quarry.ql.exec.LookupPages;
import io.quarry.ql.exec.LookupTable;
import io.quarry.ql.exec.MakeResultsPages;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.RowStages;
import io.quarry.ql.parser.Position;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The row engine's reach (issue 21): a search's stats name the commands that ran on rows ({@link
 * RowStages}), none when it ran on pages; {@code quarry.search.engine=pages-only} refuses a search
 * that needs rows, naming the commands. And {@code makeresults} made straight as pages ({@link
 * MakeResultsPages}) against the row generator's rows typed by {@link PageCollector}.
 */
class RowStagesSearchTest {
  private static final String PASSWORD = "row-stages-pw";

  @TempDir static Path root;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(root.resolve("data"), PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void makeResultsWithPageCommandsRunsWithoutRows() throws Exception {
    String query = "| makeresults count=3 annotate=true | eval n=1 | where n=1 | table _time, n";
    assertThat(run(query, "pages").rowStages()).isEmpty();
    assertThat(run(query, "pages-only").rows()).isEqualTo(3);
    assertThat(run(query, "rows").rowStages())
        .containsExactly("makeresults", "eval", "where", "table");
  }

  @Test
  void pagesOnlyRefusesARowCommandNamingIt() throws Exception {
    // a time-ordered search with a wildcard rename before a plugin command has no page form yet
    String query = "* | rename re* AS x* | eval y=1 | mvexpand team | head 5";
    assertThatThrownBy(() -> run(query, "pages-only"))
        .isInstanceOf(RowStages.RowEngineRefused.class)
        .hasMessageContaining("rename, eval, mvexpand, head would run on the row engine");
    assertThat(run(query, "pages").rowStages()).contains("rename", "mvexpand");
  }

  @Test
  void appendpipeRunsItsCommandsOnPages() throws Exception {
    // appendpipe's own commands run on pages, a bare word among them too (its rows are made from
    // pages: no term matches them); under engine=rows they are entered as row stages
    for (String query :
        List.of(
            "| makeresults count=2 | eval u=1 | appendpipe [where u=1 | eval u=2]",
            "| makeresults count=2 | eval u=1 | appendpipe [search x OR u=1]",
            "| makeresults count=2 | eval u=1 | append [| makeresults | eval v=1]"
                + " | appendpipe [stats count by v]")) {
      assertThat(run(query, "pages").rowStages()).as(query).isEmpty();
      assertThat(run(query, "pages-only").rows()).as(query).isEqualTo(run(query, "rows").rows());
    }
    assertThat(
            run("| makeresults count=2 | eval u=1 | appendpipe [where u=1 | eval u=2]", "rows")
                .rowStages())
        .containsExactlyInAnyOrder("makeresults", "eval", "appendpipe", "where");
  }

  @Test
  void makeResultsPagesAreTheRowGeneratorsRowsAsPages() {
    Instant now = Instant.parse("2026-01-05T10:11:12.345678Z");
    Random random = new Random(7);
    for (int round = 0; round < 40; round++) {
      MakeResultsCommand make =
          new MakeResultsCommand(
              1 + random.nextInt(3000), random.nextBoolean(), new Position(0, 1, 1));
      int pageSize = 1 + random.nextInt(1100);
      List<Page> rows = new ArrayList<>();
      PageCollector collector = new PageCollector(pageSize, rows::add);
      GeneratorRun.madeResults(make, now).forEach(collector::accept);
      collector.finish();
      List<Page> pages = new ArrayList<>();
      new MakeResultsPages(make, now, pageSize).forEachRemaining(pages::add);
      assertThat(table(pages)).as("%s, pages of %d", make, pageSize).isEqualTo(table(rows));
    }
  }

  @Test
  void lookupPagesAreTheRowGeneratorsRowsAsPages() {
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
      List<Page> rows = new ArrayList<>();
      PageCollector collector = new PageCollector(pageSize, rows::add);
      GeneratorRun.lookupRows(table).forEach(collector::accept);
      collector.finish();
      List<Page> pages = new ArrayList<>();
      new LookupPages(table, pageSize).forEachRemaining(pages::add);
      assertThat(table(pages)).as("%d rows, pages of %d", height, pageSize).isEqualTo(table(rows));
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

  private static SearchStats run(String query, String engine) throws Exception {
    String before = System.getProperty(PageBatch.ENGINE_PROPERTY);
    System.setProperty(PageBatch.ENGINE_PROPERTY, engine);
    try {
      return server.search().run(query, server.search().plan(query, null, null), page -> {});
    } finally {
      if (before == null) {
        System.clearProperty(PageBatch.ENGINE_PROPERTY);
      } else {
        System.setProperty(PageBatch.ENGINE_PROPERTY, before);
      }
    }
  }
}
