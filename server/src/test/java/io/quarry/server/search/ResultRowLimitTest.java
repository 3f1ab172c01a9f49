package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.config.Search;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * search.maxResultRows caps an answer exactly, whichever way the answer's pages leave: whole from
 * the aggregation, through the page stages after it, or through row commands. 3,000 groups make
 * three pages of 1,024; the limit of 1,500 falls inside the second.
 */
class ResultRowLimitTest {
  private static final String PASSWORD = "result-limit-password";

  @TempDir static Path root;
  @AutoClose private static SearchTestServer quarry;

  @BeforeAll
  static void start() throws Exception {
    quarry =
        SearchTestServer.start(
            root,
            PASSWORD,
            settings ->
                settings.put(
                    "search",
                    new Search(
                        null, 1_500L, null, null, null, null, null, null, null, null, null, null)));
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 3_000; i++) {
      lines.append("2026-01-07T10:00:00Z x=value").append(i).append(" y=g").append(i % 3);
      lines.append('\n');
    }
    quarry.loadRaw("app", lines.toString());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = ';',
      value = {
        "* | stats count by x; 1500",
        "* | stats count by x | sort -x; 1500",
        "* | stats count by x | eval z=1 | fields x, z; 1500",
        "* | stats count by x | head 2000; 1500",
        "* | stats count by x | head 1200; 1200",
        "* | stats count by x | dedup x; 1500",
        "* | stats count by x | top limit=5000 x; 1500",
        "* | stats count by y; 3",
      })
  void theAnswerStopsAtTheLimit(String query, int rows) throws Exception {
    assertThat(quarry.results(query)).as(query).hasSize(rows);
  }
}
