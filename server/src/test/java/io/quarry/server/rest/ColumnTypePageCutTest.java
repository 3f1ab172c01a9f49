package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.search.SearchService;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 (coltype): a value's type and how it is written do not depend on where the pages part.
 * Inside the engine a page's numeric column is one block, so a whole number that shares a page with
 * a fraction is held as a double ({@code 4.0}) and alone as a long ({@code 4}); every output shows
 * it as the value it is ({@code Values.isWhole}). Each search runs over a real server and real HTTP
 * in pages of 1 row and of 1,024 rows (the {@link SearchService#PAGE_SIZE_PROPERTY} the page-cut
 * listing tests use) and must answer the same bytes in NDJSON, CSV and Splunk's export JSON, the
 * same typed rows in JSON (whose framing is a page per page) and the same schema and values read
 * back with Arrow's own Java reader. Four events, newest first {@code n=4, 3, 2, 1}; the searches
 * give {@code n=1} a whole number and the others fractions, then keep {@code n=1} alone or beside
 * them.
 */
class ColumnTypePageCutTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "coltype-pw";
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final int[] PAGE_SIZES = {1, SearchService.PAGE_SIZE};

  /** {@code x}: 4 on n=1, 3.5 on every other event. */
  private static final String X = "index=main | eval x=if(n==1, 4, 3.5)";

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(directory.resolve("data"), PASSWORD);
    StringBuilder lines = new StringBuilder();
    for (int n = 1; n <= 4; n++) {
      lines.append("2026-01-01 00:00:0").append(n).append(" n=").append(n).append(" v=");
      lines.append(n == 1 ? "4" : n + ".5").append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
    TestServers.awaitCount(server, PASSWORD, "main", 4, 200);
  }

  @Test
  void aWholeNumberKeptAloneIsWrittenAsTheWholeNumber() throws Exception {
    // pages of 1,024: x is a double block (4.0, 3.5 …) that the where leaves holding 4.0 alone
    Map<String, Object> answer = sameInEveryFormat(X + " | where n==1 | table n, x");
    assertThat(answer.get("ndjson")).isEqualTo("{\"n\":\"1\",\"x\":4}\n");
  }

  @Test
  void convertNumOfAWholeNumberIsWrittenTheSameWherePagesPart() throws Exception {
    Map<String, Object> answer =
        sameInEveryFormat("index=main | convert num(v) AS w | where n==1 | table n, w");
    assertThat(answer.get("csv")).isEqualTo("n,w\r\n1,4\r\n");
  }

  @Test
  void aColumnWithFractionsWritesItsWholeNumbersAsDoublesWherePagesPart() throws Exception {
    Map<String, Object> answer = sameInEveryFormat(X + " | table n, x");
    assertThat((String) answer.get("ndjson")).endsWith("{\"n\":\"1\",\"x\":4.0}\n");
  }

  @Test
  void aggregationsOfAWholeNumberHeldAsADoubleAreWholeNumbers() throws Exception {
    Map<String, Object> answer =
        sameInEveryFormat(X + " | where n==1 | stats sum(x) AS s, max(x) AS m, avg(x) AS a");
    assertThat(answer.get("ndjson")).isEqualTo("{\"s\":4,\"m\":4,\"a\":4}\n");
    sameInEveryFormat(X + " | where n==1 | eventstats sum(x) AS t | table n, t");
    sameInEveryFormat(X + " | where n==1 | streamstats sum(x) AS t | table n, t");
  }

  @Test
  void functionsOfAWholeNumberHeldAsADoubleAnswerAsForTheWholeNumber() throws Exception {
    Map<String, Object> answer =
        sameInEveryFormat(
            X
                + " | eval j=json_object(\"x\", x), d=if(isdouble(x), \"y\", \"n\"),"
                + " c=tostring(x*1000, \"commas\") | where n==1 | table j, d, c");
    assertThat(answer.get("csv")).isEqualTo("j,d,c\r\n\"{\"\"x\"\":4}\",n,\"4,000\"\r\n");
  }

  @Test
  void foreachFieldformatAndFillnullWriteWholeNumbersTheSame() throws Exception {
    sameInEveryFormat(X + " | foreach x [eval <<FIELD>>=<<FIELD>>*1] | where n==1 | table n, x");
    sameInEveryFormat(X + " | fieldformat x=x*2 | where n==1 | table n, x");
    Map<String, Object> filled =
        sameInEveryFormat(
            "index=main | eval x=case(n==2, null(), n==1, 4, true(), 3.5) | fillnull value=0 x"
                + " | where n<=2 | table n, x");
    assertThat(filled.get("ndjson")).isEqualTo("{\"n\":\"2\",\"x\":0}\n{\"n\":\"1\",\"x\":4}\n");
  }

  /** {@code y}: the number 4 on n=1, the text "a" on every other event (session 42, types42). */
  private static final String MIXED = "index=main | eval y=if(n==1, 4, \"a\")";

  @Test
  void aNumberBesideTextIsTheNumberWherePagesPart() throws Exception {
    // pages of 1,024: y's page holds 4 beside "a"; pages of 1: 4 alone (fails before session 42:
    // typeof String and no y+1 there, Number and 5 alone)
    Map<String, Object> alone =
        sameInEveryFormat(
            MIXED
                + " | eval t=typeof(y), z=y+1, s=if(isnum(y), \"y\", \"n\") | where n==1"
                + " | table n, y, t, z, s");
    assertThat(alone.get("ndjson"))
        .isEqualTo("{\"n\":\"1\",\"y\":4,\"t\":\"Number\",\"z\":5,\"s\":\"y\"}\n");
    // beside the text on the wire: one string column, the number written as its text
    Map<String, Object> beside = sameInEveryFormat(MIXED + " | eval t=typeof(y) | table n, y, t");
    assertThat((String) beside.get("ndjson"))
        .endsWith("{\"n\":\"1\",\"y\":\"4\",\"t\":\"Number\"}\n");
    Map<String, Object> stats =
        sameInEveryFormat(MIXED + " | stats first(y) AS f, sum(y) AS s | eval t=typeof(f)");
    assertThat(stats.get("ndjson")).isEqualTo("{\"f\":\"a\",\"s\":4,\"t\":\"String\"}\n");
    Map<String, Object> last =
        sameInEveryFormat(MIXED + " | stats last(y) AS l | eval t=typeof(l)");
    assertThat(last.get("ndjson")).isEqualTo("{\"l\":4,\"t\":\"Number\"}\n");
  }

  @Test
  void aWholeNumberPastTwoToThe53BesideAFractionKeepsEveryDigitWherePagesPart() throws Exception {
    // pages of 1,024: 2^53 + 1 shares its page with 0.5 (a double block rounded it to ...992)
    Map<String, Object> answer =
        sameInEveryFormat(
            "index=main | eval x=if(n==1, 9007199254740993, 0.5), s=tostring(x) | table n, x, s");
    assertThat((String) answer.get("ndjson"))
        .endsWith("{\"n\":\"1\",\"x\":9007199254740993,\"s\":\"9007199254740993\"}\n");
    assertThat((String) answer.get("csv")).endsWith("1,9007199254740993,9007199254740993\r\n");
  }

  /**
   * Runs {@code query} in pages of each size and checks that every format answers the same; the
   * answers of the last size by format ({@code ndjson}, {@code csv}, {@code export}, {@code json}:
   * its rows, {@code arrow}: its schema and rows).
   */
  private static Map<String, Object> sameInEveryFormat(String query) throws Exception {
    Map<String, Object> first = null;
    for (int pageSize : PAGE_SIZES) {
      Map<String, Object> answer = inPagesOf(pageSize, () -> answers(query));
      if (first != null) {
        for (String format : first.keySet()) {
          assertThat(answer.get(format))
              .as("%s in %s: pages of %d rows against pages of 1", query, format, pageSize)
              .isEqualTo(first.get(format));
        }
      }
      first = answer;
    }
    return first;
  }

  private static Map<String, Object> answers(String query) throws Exception {
    return Map.of(
        "ndjson", text(search(query, "application/x-ndjson")),
        "csv", text(search(query, "text/csv")),
        "export", TestServers.exportOk(server, PASSWORD, query),
        "json", jsonRows(text(search(query, "application/json"))),
        "arrow", arrowTable(search(query, "application/vnd.apache.arrow.stream")));
  }

  /** Runs {@code answer} with every search starting meanwhile cut into pages of {@code rows}. */
  private static <T> T inPagesOf(int rows, java.util.concurrent.Callable<T> answer)
      throws Exception {
    System.setProperty(SearchService.PAGE_SIZE_PROPERTY, Integer.toString(rows));
    try {
      return answer.call();
    } finally {
      System.clearProperty(SearchService.PAGE_SIZE_PROPERTY);
    }
  }

  private static byte[] search(String query, String accept) throws Exception {
    HttpResponse<byte[]> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
                .header("Authorization", TestServers.basic(PASSWORD))
                .header("Accept", accept)
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(Map.of("query", query, "compression", "none"))))
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).as(text(response.body())).isEqualTo(200);
    return response.body();
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /**
   * The JSON answer's rows, each cell as {@code name:type=value} (the value as JSON wrote it), the
   * pages' framing left out.
   */
  private static List<String> jsonRows(String body) throws Exception {
    List<String> rows = new ArrayList<>();
    for (JsonNode page : JSON.readTree(body).path("pages")) {
      JsonNode fields = page.path("fields");
      for (JsonNode row : page.path("rows")) {
        StringBuilder cells = new StringBuilder();
        for (int c = 0; c < fields.size(); c++) {
          cells.append(fields.get(c).path("name").asText()).append(':');
          cells.append(fields.get(c).path("type").asText()).append('=');
          cells.append(row.get(c)).append(' ');
        }
        rows.add(cells.toString());
      }
    }
    return rows;
  }

  /** The Arrow stream's schema, then each row's values as the reader gives them. */
  private static List<String> arrowTable(byte[] stream) throws Exception {
    List<String> table = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      table.add(root.getSchema().toString());
      while (reader.loadNextBatch()) {
        for (int row = 0; row < root.getRowCount(); row++) {
          StringBuilder cells = new StringBuilder();
          for (FieldVector vector : root.getFieldVectors()) {
            Object value = vector.getObject(row);
            var encoding = vector.getField().getDictionary();
            if (value != null && encoding != null) { // a repeated text: its dictionary's value
              value =
                  reader
                      .getDictionaryVectors()
                      .get(encoding.getId())
                      .getVector()
                      .getObject((Integer) value);
            }
            cells.append(value == null ? "null" : value.getClass().getSimpleName() + ":" + value);
            cells.append(' ');
          }
          table.add(cells.toString());
        }
      }
    }
    return table;
  }
}
