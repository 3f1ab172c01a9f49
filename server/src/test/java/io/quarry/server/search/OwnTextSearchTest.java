package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code search} of bare words in an event listing after commands that change {@code _raw} but
 * keep the rows events ({@code eval _raw=…}, {@code rename x AS _raw}, {@code rex mode=sed}, a
 * {@code lookup} without {@code OUTPUT}) gives the pages the row engine gives — page by page, over
 * a real store of random events ({@link EnginePages}): on rows an event row asks its event's stored
 * text whatever {@code _raw} it holds, on pages the terms match the event's own text the listing
 * carries ({@link io.quarry.ql.exec.EventText#OWN_RAW}).
 */
class OwnTextSearchTest {
  private static final String PASSWORD = "own-text-search-pw";
  private static final long SEED = new Random().nextLong();

  @TempDir static Path dataDirectory;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    EnginePages.loadRandomEvents(server, SEED);
    EnginePages.uploadRegions(server, PASSWORD);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  private static final List<String> SEARCHES =
      List.of(
          "* | eval _raw=\"x\" | search WARN",
          "* | eval _raw=upper(_raw) | search INFO n>2000",
          "* | eval _raw=null() | search WARN | head 30",
          "* | rename level AS _raw | search WARN",
          "* | rex field=_raw mode=sed \"s/WARN/W/\" | search WARN",
          "* | lookup regions.csv region | search eu OR kv1",
          "* | where n > 5 | eval _raw=\"r\" . n | search \"level=WARN\" | eval k=1");

  @Test
  void pagesAsTheRowEngine() throws Exception {
    for (String query : SEARCHES) {
      assertThat(EnginePages.pages(server, query, PageBatch.PAGES_ONLY, false))
          .as(query + " (seed " + SEED + ")")
          .isEqualTo(EnginePages.pages(server, query, "rows", false));
      assertThat(EnginePages.explain(server, query)).as(query).containsEntry("engine", "pages");
    }
  }

  @Test
  void aRowWithoutRawStillMatchesNoTerm() throws Exception {
    // on rows a row of fields/table has only the _raw it keeps; _raw renamed away: no _raw to match
    for (String query :
        List.of(
            "* | fields - _raw | search WARN", "* | eval _raw=\"x\" | fields - _raw | search x")) {
      assertThat(EnginePages.pages(server, query, "pages", false))
          .as(query + " (seed " + SEED + ")")
          .isEqualTo(EnginePages.pages(server, query, "rows", false));
    }
    assertThat(EnginePages.explain(server, "* | rename _raw AS r | search WARN"))
        .containsEntry("engine", "rows");
  }
}
