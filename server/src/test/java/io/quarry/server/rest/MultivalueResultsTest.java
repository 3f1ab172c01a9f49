package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.client.QuarryClient;
import io.quarry.client.TypedResults;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multivalues ({@code values}, {@code list}, {@code split}, {@code mvappend}) in every output: JSON
 * arrays in Quarry's JSON and NDJSON, its jobs' results, Splunk's export and job results (arrays of
 * text, as Splunk's JSON output gives them); one {@code <value>} per value in Splunk's results XML;
 * one newline-joined cell in CSV; an Arrow list column, read by Arrow's own reader, pyarrow and the
 * Java client. Expected values are worked out by hand from the four events loaded (searches see
 * them newest first: n=4, 3, 2, 1).
 */
class MultivalueResultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String EVENTS =
      """
      2026-01-01 00:00:01 n=1 method=GET tags=red:green x=1 y=10
      2026-01-01 00:00:02 n=2 method=POST tags=blue x=2 y=20
      2026-01-01 00:00:03 n=3 method=GET tags=red:blue:green x=3 y=30
      2026-01-01 00:00:04 n=4 method=PUT x=4 y=40
      """;

  private static final String STATS =
      "index=main | stats values(method) AS methods, list(method) AS all, count";
  private static final String SPLIT = "index=main | eval parts=split(tags, \":\") | table n, parts";
  private static final String MVAPPEND =
      "index=main | eval m=mvappend(tonumber(x), tonumber(y)) | table n, m";

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();
  private final String auth =
      "Basic " + Base64.getEncoder().encodeToString("admin:pw".getBytes(StandardCharsets.UTF_8));

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, "pw");
    TestServers.loadRaw(server, EVENTS);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private <T> HttpResponse<T> streamed(
      String accept, String query, HttpResponse.BodyHandler<T> handler) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
            .header("Authorization", auth)
            .header("Accept", accept)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    JSON.writeValueAsString(Map.of("query", query))))
            .build(),
        handler);
  }

  private String text(String accept, String query) throws Exception {
    HttpResponse<String> response = streamed(accept, query, HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  private HttpResponse<String> call(String method, String path, String form) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(server.url() + path)).header("Authorization", auth);
    if (form != null) {
      request.header("Content-Type", "application/x-www-form-urlencoded");
    }
    request.method(
        method,
        form == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(form));
    HttpResponse<String> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isBetween(200, 201);
    return response;
  }

  private static String form(String... pairs) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      parts.add(pairs[i] + "=" + URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
    }
    return String.join("&", parts);
  }

  /** The {@code result} objects of Splunk's export endpoint (JSON lines). */
  private List<String> export(String query) throws Exception {
    return TestServers.exportRows(server, "pw", "search " + query).stream()
        .map(JsonNode::toString)
        .toList();
  }

  @Test
  void splunksExportGivesAMultivalueAsAnArrayOfText() throws Exception {
    assertThat(export(STATS))
        .containsExactly(
            "{\"methods\":[\"GET\",\"POST\",\"PUT\"],"
                + "\"all\":[\"PUT\",\"GET\",\"POST\",\"GET\"],\"count\":\"4\"}");
    assertThat(export(SPLIT))
        .containsExactly(
            "{\"n\":\"4\"}",
            "{\"n\":\"3\",\"parts\":[\"red\",\"blue\",\"green\"]}",
            "{\"n\":\"2\",\"parts\":\"blue\"}", // split into one part: a single value
            "{\"n\":\"1\",\"parts\":[\"red\",\"green\"]}");
    assertThat(export(MVAPPEND))
        .containsExactly(
            "{\"n\":\"4\",\"m\":[\"4\",\"40\"]}",
            "{\"n\":\"3\",\"m\":[\"3\",\"30\"]}",
            "{\"n\":\"2\",\"m\":[\"2\",\"20\"]}",
            "{\"n\":\"1\",\"m\":[\"1\",\"10\"]}");
  }

  @Test
  void quarrysJsonAndNdjsonGiveTypedArrays() throws Exception {
    com.fasterxml.jackson.databind.node.ObjectNode stats =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            JSON.readTree(text("application/json", STATS));
    assertThat(stats.remove("costs")).isNotNull(); // what the search cost: SearchApiTest
    assertThat(stats.toString())
        .isEqualTo(
            "{\"pages\":[{\"fields\":[{\"name\":\"methods\",\"type\":\"string\"},"
                + "{\"name\":\"all\",\"type\":\"string\"},{\"name\":\"count\",\"type\":\"long\"}],"
                + "\"rows\":[[[\"GET\",\"POST\",\"PUT\"],[\"PUT\",\"GET\",\"POST\",\"GET\"],4]]}],"
                + "\"messages\":[]}");
    assertThat(JSON.readTree(text("application/json", MVAPPEND)).at("/pages/0").toString())
        .isEqualTo(
            "{\"fields\":[{\"name\":\"n\",\"type\":\"string\"},{\"name\":\"m\",\"type\":\"long\"}],"
                + "\"rows\":[[\"4\",[4,40]],[\"3\",[3,30]],[\"2\",[2,20]],[\"1\",[1,10]]]}");
    assertThat(text("application/x-ndjson", SPLIT).split("\n"))
        .containsExactly(
            "{\"n\":\"4\"}",
            "{\"n\":\"3\",\"parts\":[\"red\",\"blue\",\"green\"]}",
            "{\"n\":\"2\",\"parts\":\"blue\"}",
            "{\"n\":\"1\",\"parts\":[\"red\",\"green\"]}");
  }

  @Test
  void csvJoinsAMultivalueWithNewlinesInOneCell() throws Exception {
    assertThat(text("text/csv", STATS))
        .isEqualTo("methods,all,count\r\n\"GET\nPOST\nPUT\",\"PUT\nGET\nPOST\nGET\",4\r\n");
    assertThat(text("text/csv", SPLIT))
        .isEqualTo("n,parts\r\n4,\r\n3,\"red\nblue\ngreen\"\r\n2,blue\r\n1,\"red\ngreen\"\r\n");
  }

  @Test
  void arrowHasListColumns() throws Exception {
    byte[] stats =
        streamed(
                "application/vnd.apache.arrow.stream",
                STATS,
                HttpResponse.BodyHandlers.ofByteArray())
            .body();
    assertThat(arrow(stats))
        .containsExactly(
            "methods:List<item: Utf8 null>",
            "all:List<item: Utf8 null>",
            "count:Int(64, true)",
            "[\"GET\",\"POST\",\"PUT\"] | [\"PUT\",\"GET\",\"POST\",\"GET\"] | 4");
    byte[] split =
        streamed(
                "application/vnd.apache.arrow.stream",
                SPLIT,
                HttpResponse.BodyHandlers.ofByteArray())
            .body();
    assertThat(arrow(split))
        .containsExactly(
            "n:Utf8",
            "parts:List<item: Utf8 null>",
            "4 | null",
            "3 | [\"red\",\"blue\",\"green\"]",
            "2 | [\"blue\"]", // a single value in a list column: a list of one
            "1 | [\"red\",\"green\"]");
    byte[] appended =
        streamed(
                "application/vnd.apache.arrow.stream",
                MVAPPEND,
                HttpResponse.BodyHandlers.ofByteArray())
            .body();
    assertThat(arrow(appended))
        .containsExactly(
            "n:Utf8",
            "m:List<item: Int(64, true) null>",
            "4 | [4,40]",
            "3 | [3,30]",
            "2 | [2,20]",
            "1 | [1,10]");
  }

  /** An Arrow stream read by Arrow's Java reader: field types, then rows of values. */
  private static List<String> arrow(byte[] stream) throws Exception {
    List<String> lines = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      root.getSchema()
          .getFields()
          .forEach(
              f ->
                  lines.add(
                      f.getName()
                          + ":"
                          + (f.getDictionary() == null ? f.getType() : "dictionary")
                          + (f.getChildren().isEmpty()
                              ? ""
                              : "<"
                                  + f.getChildren().get(0).getName()
                                  + ": "
                                  + f.getChildren().get(0).getType()
                                  + (f.getChildren().get(0).isNullable() ? " null" : "")
                                  + ">")));
      while (reader.loadNextBatch()) {
        for (int row = 0; row < root.getRowCount(); row++) {
          List<String> values = new ArrayList<>();
          for (var vector : root.getFieldVectors()) {
            Object value = vector.getObject(row);
            if (vector.getField().getDictionary() != null && value != null) {
              value =
                  reader
                      .getDictionaryVectors()
                      .get(vector.getField().getDictionary().getId())
                      .getVector()
                      .getObject(((Number) value).intValue());
            }
            values.add(
                value instanceof List<?> list
                    ? JSON.writeValueAsString(list.stream().map(v -> toJson(v)).toList())
                    : String.valueOf(value));
          }
          lines.add(String.join(" | ", values));
        }
      }
    }
    return lines;
  }

  /** Arrow's Text values as strings for JSON. */
  private static Object toJson(Object value) {
    return value instanceof org.apache.arrow.vector.util.Text text ? text.toString() : value;
  }

  @Test
  void jobResultsCarryMultivaluesInEveryMode() throws Exception {
    String id =
        JSON.readTree(
                call(
                        "POST",
                        "/services/search/jobs",
                        form(
                            "search",
                            "search " + SPLIT,
                            "exec_mode",
                            "blocking",
                            "output_mode",
                            "json"))
                    .body())
            .get("sid")
            .asText();
    String results = "/services/search/jobs/" + id + "/results?output_mode=";
    assertThat(JSON.readTree(call("GET", results + "json", null).body()).get("results").toString())
        .isEqualTo(
            "[{\"n\":\"4\"},{\"n\":\"3\",\"parts\":[\"red\",\"blue\",\"green\"]},"
                + "{\"n\":\"2\",\"parts\":\"blue\"},{\"n\":\"1\",\"parts\":[\"red\",\"green\"]}]");
    assertThat(
            JSON.readTree(call("GET", results + "json_rows", null).body()).get("rows").toString())
        .isEqualTo(
            "[[\"4\",null],[\"3\",[\"red\",\"blue\",\"green\"]],[\"2\",\"blue\"],"
                + "[\"1\",[\"red\",\"green\"]]]");
    assertThat(
            JSON.readTree(call("GET", results + "json_cols", null).body())
                .get("columns")
                .toString())
        .isEqualTo(
            "[[\"4\",\"3\",\"2\",\"1\"],"
                + "[null,[\"red\",\"blue\",\"green\"],\"blue\",[\"red\",\"green\"]]]");
    assertThat(call("GET", results + "csv", null).body())
        .isEqualTo("n,parts\r\n4,\r\n3,\"red\nblue\ngreen\"\r\n2,blue\r\n1,\"red\ngreen\"\r\n");
    assertThat(call("GET", "/services/search/jobs/" + id + "/results", null).body())
        .contains(
            "<result offset=\"1\"><field k=\"n\"><value><text>3</text></value></field>"
                + "<field k=\"parts\"><value><text>red</text></value>"
                + "<value><text>blue</text></value><value><text>green</text></value></field>"
                + "</result>")
        .contains(
            "<result offset=\"2\"><field k=\"n\"><value><text>2</text></value></field>"
                + "<field k=\"parts\"><value><text>blue</text></value></field></result>");
    JsonNode typed =
        JSON.readTree(call("GET", "/api/v1/jobs/" + id + "/results", null).body()).get("rows");
    assertThat(typed.toString())
        .isEqualTo(
            "[[\"4\",null],[\"3\",[\"red\",\"blue\",\"green\"]],[\"2\",\"blue\"],"
                + "[\"1\",[\"red\",\"green\"]]]");
  }

  @Test
  void theJavaClientReadsMultivaluesAsListsFromJsonAndArrowAlike() throws Exception {
    QuarryClient client =
        QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
    for (String query : List.of(STATS, SPLIT, MVAPPEND)) {
      List<TypedResults> json = new ArrayList<>();
      List<TypedResults> arrow = new ArrayList<>();
      client.stream(query, null, null).forEachRemaining(json::add);
      client.stream(query, null, null, QuarryClient.StreamFormat.ARROW)
          .forEachRemaining(arrow::add);
      assertThat(arrow).hasSameSizeAs(json);
      for (int i = 0; i < json.size(); i++) {
        assertThat(arrow.get(i).columns()).as(query).isEqualTo(json.get(i).columns());
        assertThat(arrow.get(i).rows()).as(query).isEqualTo(json.get(i).rows());
      }
    }
    List<TypedResults> appended = new ArrayList<>();
    client.stream(MVAPPEND, null, null, QuarryClient.StreamFormat.ARROW)
        .forEachRemaining(appended::add);
    assertThat(appended.get(0).rows().get(0)).containsExactly("4", List.of(4L, 40L));
    List<TypedResults> split = new ArrayList<>();
    client.stream(SPLIT, null, null, QuarryClient.StreamFormat.ARROW).forEachRemaining(split::add);
    assertThat(split.get(0).rows())
        .containsExactly(
            Arrays.asList("4", null),
            List.of("3", List.of("red", "blue", "green")),
            List.of("2", "blue"),
            List.of("1", List.of("red", "green")));
    // the export endpoint's rows as text: a multivalue joined by newlines, as Splunk's CSV
    assertThat(client.search(STATS).rows())
        .containsExactly(
            Map.of("methods", "GET\nPOST\nPUT", "all", "PUT\nGET\nPOST\nGET", "count", "4"));
  }

  @Test
  void pyarrowReadsListColumns() throws Exception {
    Path python = PythonVenv.with("pyarrow");
    String output =
        PythonVenv.script(python, "/pyarrow/read.py", server.url(), "pw", SPLIT, "zstd");
    assertThat(output).as("the pyarrow script failed; its output is on standard error").isNotNull();
    JsonNode read = JSON.readTree(output.lines().reduce((a, b) -> b).orElseThrow());
    assertThat(read.get("types").toString())
        .isEqualTo("{\"n\":\"string\",\"parts\":\"list<item: string>\"}");
    assertThat(read.get("rows").toString())
        .isEqualTo(
            "[[\"4\",null],[\"3\",[\"red\",\"blue\",\"green\"]],[\"2\",[\"blue\"]],"
                + "[\"1\",[\"red\",\"green\"]]]");
    String appended =
        PythonVenv.script(python, "/pyarrow/read.py", server.url(), "pw", MVAPPEND, "none");
    JsonNode longs = JSON.readTree(appended.lines().reduce((a, b) -> b).orElseThrow());
    assertThat(longs.get("types").toString())
        .isEqualTo("{\"n\":\"string\",\"m\":\"list<item: int64>\"}");
    assertThat(longs.get("rows").toString())
        .isEqualTo("[[\"4\",[4,40]],[\"3\",[3,30]],[\"2\",[2,20]],[\"1\",[1,10]]]");
  }
}
