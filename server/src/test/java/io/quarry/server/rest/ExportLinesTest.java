package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The export endpoint's lines for pages holding enough work to be encoded by two threads ({@link
 * ExportLines#PARALLEL_WORK}), wide ones and long narrow ones: every row once, in order, numbered
 * by {@code offset} without a gap, {@code lastrow} on the last line only, each row's values its own
 * — across pages, through a real server over HTTP.
 */
class ExportLinesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int COLUMNS = 48;
  private static final int ROWS = 2_500; // pages of 1,024 rows: two wide pages and a narrower one

  private static final int NARROW_ROWS = 5_000; // four split pages of 1,024 rows and a shorter one

  @TempDir Path dataDirectory;

  @Test
  void longNarrowPagesAreSplitButAFewRowsAreNot() {
    // a stats … by answer's page: 1,024 rows, the last held back for lastrow, of 2 or 3 columns
    assertThat(ExportLines.splits(1_023, 2)).isTrue();
    assertThat(ExportLines.splits(1_023, 3)).isTrue();
    assertThat(ExportLines.splits(255, 250)).isTrue(); // a wide mstats page
    assertThat(ExportLines.splits(1_023, 1)).isFalse();
    assertThat(ExportLines.splits(99, 10)).isFalse(); // head 100 of events with a few fields
    assertThat(ExportLines.splits(9, 3)).isFalse();
  }

  @Test
  void longNarrowPagesComeOutInOrderWithTheirOwnValues() throws Exception {
    String query =
        "| makeresults count="
            + NARROW_ROWS
            + " | streamstats count AS n | eval key=\"s-\".n, r=n*0.5 | fields - _time";
    try (QuarryServer server = TestServers.start(dataDirectory, "pw")) {
      HttpResponse<String> answer = TestServers.export(server, "pw", query);
      assertThat(answer.statusCode()).isEqualTo(200);
      List<String> lines = answer.body().lines().toList();
      assertThat(lines).hasSize(NARROW_ROWS);
      for (int i = 0; i < NARROW_ROWS; i++) {
        JsonNode line = JSON.readTree(lines.get(i));
        assertThat(line.get("offset").asLong()).as("line %d", i).isEqualTo(i);
        assertThat(line.has("lastrow")).as("line %d", i).isEqualTo(i == NARROW_ROWS - 1);
        JsonNode result = line.get("result");
        long n = i + 1;
        assertThat(result.size()).as("line %d", i).isEqualTo(3);
        assertThat(result.get("n").asText()).as("line %d", i).isEqualTo(Long.toString(n));
        assertThat(result.get("key").asText()).as("line %d", i).isEqualTo("s-" + n);
        assertThat(Double.parseDouble(result.get("r").asText()))
            .as("line %d", i)
            .isEqualTo(n * 0.5);
      }
    }
  }

  @Test
  void widePagesComeOutInOrderWithTheirOwnValues() throws Exception {
    StringBuilder eval = new StringBuilder();
    for (int c = 0; c < COLUMNS; c++) {
      eval.append(c == 0 ? "" : ", ").append("c").append(c).append("=n*0.25+").append(c);
    }
    String query =
        "| makeresults count="
            + ROWS
            + " | streamstats count AS n | eval "
            + eval
            + " | fields - _time";
    try (QuarryServer server = TestServers.start(dataDirectory, "pw")) {
      HttpResponse<String> answer = TestServers.export(server, "pw", query);
      assertThat(answer.statusCode()).isEqualTo(200);
      List<String> lines = answer.body().lines().toList();
      assertThat(lines).hasSize(ROWS);
      for (int i = 0; i < ROWS; i++) {
        JsonNode line = JSON.readTree(lines.get(i));
        assertThat(line.get("offset").asLong()).isEqualTo(i);
        assertThat(line.has("lastrow")).isEqualTo(i == ROWS - 1);
        JsonNode result = line.get("result");
        long n = i + 1;
        assertThat(result.get("n").asText()).isEqualTo(Long.toString(n));
        for (int c = 0; c < COLUMNS; c++) {
          assertThat(Double.parseDouble(result.get("c" + c).asText()))
              .as("row %d column c%d", i, c)
              .isEqualTo(n * 0.25 + c);
        }
      }
    }
  }
}
