package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Results as an Arrow IPC stream: read back with Arrow's own Java reader and with pyarrow, they
 * equal the JSON results, types included.
 */
class ArrowResultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String QUERY =
      "index=main | stats count, avg(ms) AS avg_ms by status | sort status";

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, "pw");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      lines
          .append("2026-01-01 00:")
          .append(String.format("%02d:%02d", i / 60 % 60, i % 60))
          .append(" status=")
          .append(i % 3 == 0 ? "500" : "200")
          .append(" ms=")
          .append(i % 7)
          .append(i < 100 ? " note=early" : "") // only on the oldest events: the last page
          .append('\n');
    }
    TestServers.loadRaw(server, lines.toString());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private <T> HttpResponse<T> search(
      String accept, String query, String compression, HttpResponse.BodyHandler<T> handler)
      throws Exception {
    String body =
        JSON.writeValueAsString(java.util.Map.of("query", query, "compression", compression));
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
            .header(
                "Authorization",
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString("admin:pw".getBytes(StandardCharsets.UTF_8)))
            .header("Accept", accept)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        handler);
  }

  /** The JSON endpoint's rows, with timestamps as epoch microseconds text for comparison. */
  private JsonNode jsonResults(String query) throws Exception {
    HttpResponse<String> response =
        search("application/json", query, "none", HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    return JSON.readTree(response.body()).at("/pages/0");
  }

  /** Every row of every page of the JSON endpoint's answer. */
  private List<JsonNode> jsonRows(String query) throws Exception {
    HttpResponse<String> response =
        search("application/json", query, "none", HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> rows = new ArrayList<>();
    for (JsonNode page : JSON.readTree(response.body()).path("pages")) {
      page.path("rows").forEach(rows::add);
    }
    return rows;
  }

  @Test
  void repeatedStringsTravelAsDictionaries() throws Exception {
    HttpResponse<byte[]> response =
        search(
            "application/vnd.apache.arrow.stream",
            "index=main | eval kind=if(ms>3, \"slow\", \"fast\") | table status, kind, _raw",
            "none",
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    List<JsonNode> expected =
        jsonRows("index=main | eval kind=if(ms>3, \"slow\", \"fast\") | table status, kind, _raw");
    List<List<String>> rows = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(response.body()), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      var fields = root.getSchema().getFields();
      assertThat(fields.get(0).getDictionary()).isNotNull();
      assertThat(fields.get(1).getDictionary()).isNotNull();
      assertThat(fields.get(2).getDictionary()).as("_raw is unique: plain Utf8").isNull();
      while (reader.loadNextBatch()) {
        List<org.apache.arrow.vector.ValueVector> decoded = new ArrayList<>();
        for (var vector : root.getFieldVectors()) {
          var encoding = vector.getField().getDictionary();
          decoded.add(
              encoding == null
                  ? vector
                  : org.apache.arrow.vector.dictionary.DictionaryEncoder.decode(
                      vector, reader.getDictionaryVectors().get(encoding.getId())));
        }
        for (int row = 0; row < root.getRowCount(); row++) {
          List<String> values = new ArrayList<>();
          for (var vector : decoded) {
            values.add(String.valueOf(vector.getObject(row)));
          }
          rows.add(values);
        }
        for (int i = 0; i < 2; i++) {
          decoded.get(i).close();
        }
      }
    }
    assertThat(rows).hasSize(expected.size()).hasSize(3000);
    for (int i = 0; i < rows.size(); i++) {
      for (int column = 0; column < 3; column++) {
        assertThat(rows.get(i).get(column)).isEqualTo(expected.get(i).get(column).asText());
      }
    }
  }

  /**
   * An event search whose last page brings a field the first pages lack and turns a numeric field
   * into text: the stream's schema has both, typed to hold every value (as JSON types the column on
   * every page), and the rows equal JSON's.
   */
  @Test
  void fieldsFoundOnLaterPagesAndMixedTypesKeepTheirValues() throws Exception {
    String query =
        "index=main | eval n=tonumber(ms), x=if(isnull(note), n, note) | fields n, note, x";
    HttpResponse<byte[]> response =
        search(
            "application/vnd.apache.arrow.stream",
            query,
            "none",
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(response.statusCode()).isEqualTo(200);
    HttpResponse<String> jsonResponse =
        search("application/json", query, "none", HttpResponse.BodyHandlers.ofString());
    List<java.util.Map<String, String>> expected = new ArrayList<>();
    java.util.Set<String> xTypes = new java.util.HashSet<>();
    for (JsonNode page : JSON.readTree(jsonResponse.body()).path("pages")) {
      List<String> names = new ArrayList<>();
      page.path("fields").forEach(f -> names.add(f.path("name").asText()));
      page.path("fields")
          .forEach(
              f -> {
                if (f.path("name").asText().equals("x")) {
                  xTypes.add(f.path("type").asText());
                }
              });
      for (JsonNode row : page.path("rows")) {
        java.util.Map<String, String> values = new java.util.HashMap<>();
        for (int c = 0; c < names.size(); c++) {
          values.put(names.get(c), row.get(c).isNull() ? null : row.get(c).asText());
        }
        expected.add(values);
      }
    }
    assertThat(xTypes) // numbers on some pages, text on others: one type, JSON's too
        .as("JSON's pages type x as one")
        .containsExactly("string");
    List<java.util.Map<String, String>> rows = new ArrayList<>();
    List<String> types = new ArrayList<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(response.body()), allocator)) {
      VectorSchemaRoot root = reader.getVectorSchemaRoot();
      root.getSchema()
          .getFields()
          .forEach(
              f ->
                  types.add(
                      f.getName()
                          + ":"
                          + (f.getDictionary() == null ? f.getType() : "dictionary")));
      while (reader.loadNextBatch()) {
        for (int row = 0; row < root.getRowCount(); row++) {
          java.util.Map<String, String> values = new java.util.HashMap<>();
          for (var vector : root.getFieldVectors()) {
            Object value = vector.getObject(row);
            if (vector.getField().getDictionary() != null && value != null) {
              var dictionary =
                  reader.getDictionaryVectors().get(vector.getField().getDictionary().getId());
              value = dictionary.getVector().getObject(((Number) value).intValue());
            }
            values.put(vector.getName(), value == null ? null : value.toString());
          }
          rows.add(values);
        }
      }
    }
    assertThat(types).contains("n:Int(64, true)").doesNotContain("x:Int(64, true)");
    assertThat(types).anyMatch(t -> t.startsWith("note:")).anyMatch(t -> t.startsWith("x:"));
    assertThat(rows).hasSize(3000).hasSameSizeAs(expected);
    for (int i = 0; i < rows.size(); i++) {
      assertThat(withNulls(rows.get(i))).as("row " + i).isEqualTo(withNulls(expected.get(i)));
    }
    assertThat(rows.get(2999).get("x")).isEqualTo("early");
    assertThat(rows.get(0).get("x")).isEqualTo(rows.get(0).get("n"));
  }

  /** A JSON row as the Arrow stream has it: every column of the schema, null where absent. */
  private java.util.Map<String, String> withNulls(java.util.Map<String, String> row) {
    java.util.Map<String, String> all = new java.util.HashMap<>(row);
    for (String name : List.of("n", "note", "x")) {
      all.putIfAbsent(name, null);
    }
    all.keySet().retainAll(List.of("n", "note", "x"));
    return all;
  }

  @Test
  void arrowsOwnReaderSeesTheJsonResultsWithTheirTypes() throws Exception {
    for (String compression : List.of("none", "zstd")) {
      HttpResponse<byte[]> response =
          search(
              "application/vnd.apache.arrow.stream",
              QUERY,
              compression,
              HttpResponse.BodyHandlers.ofByteArray());
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Type"))
          .hasValue("application/vnd.apache.arrow.stream");
      List<List<Object>> rows = new ArrayList<>();
      List<String> types = new ArrayList<>();
      try (RootAllocator allocator = new RootAllocator();
          ArrowStreamReader reader =
              new ArrowStreamReader(new ByteArrayInputStream(response.body()), allocator)) {
        VectorSchemaRoot root = reader.getVectorSchemaRoot();
        root.getSchema().getFields().forEach(f -> types.add(f.getName() + ":" + f.getType()));
        while (reader.loadNextBatch()) {
          for (int row = 0; row < root.getRowCount(); row++) {
            List<Object> values = new ArrayList<>();
            for (var vector : root.getFieldVectors()) {
              Object value = vector.getObject(row);
              values.add(value == null ? null : value.toString());
            }
            rows.add(values);
          }
        }
      }
      assertThat(types)
          .containsExactly("status:Utf8", "count:Int(64, true)", "avg_ms:FloatingPoint(DOUBLE)");
      JsonNode json = jsonResults(QUERY);
      assertThat(rows).hasSize(json.get("rows").size());
      for (int i = 0; i < rows.size(); i++) {
        JsonNode expected = json.get("rows").get(i);
        assertThat(rows.get(i).get(0)).isEqualTo(expected.get(0).asText());
        assertThat(rows.get(i).get(1)).isEqualTo(expected.get(1).asText());
        assertThat(Double.parseDouble((String) rows.get(i).get(2)))
            .isEqualTo(expected.get(2).asDouble());
      }
    }
  }

  @Test
  void pyarrowReadsTheStreamAsIs() throws Exception {
    Path python = PythonVenv.with("pyarrow");
    for (String compression : List.of("none", "zstd")) {
      String output =
          PythonVenv.script(python, "/pyarrow/read.py", server.url(), "pw", QUERY, compression);
      assertThat(output)
          .as("the pyarrow script failed; its output is on standard error")
          .isNotNull();
      JsonNode read = JSON.readTree(output.lines().reduce((a, b) -> b).orElseThrow());
      assertThat(read.get("types").toString())
          .isEqualTo("{\"status\":\"string\",\"count\":\"int64\",\"avg_ms\":\"double\"}");
      JsonNode json = jsonResults(QUERY);
      for (int i = 0; i < json.get("rows").size(); i++) {
        JsonNode expected = json.get("rows").get(i);
        JsonNode actual = read.get("rows").get(i);
        assertThat(actual.get(0).asText()).isEqualTo(expected.get(0).asText());
        assertThat(actual.get(1).asLong()).isEqualTo(expected.get(1).asLong());
        assertThat(actual.get(2).asDouble()).isEqualTo(expected.get(2).asDouble());
      }
      assertThat(read.get("rows")).hasSize(json.get("rows").size());
    }
    // an event search: several pages, one record batch each
    String events =
        PythonVenv.script(
            python,
            "/pyarrow/read.py",
            server.url(),
            "pw",
            "index=main | table _time, status, ms",
            "zstd");
    JsonNode read = JSON.readTree(events.lines().reduce((a, b) -> b).orElseThrow());
    assertThat(read.get("rows")).hasSize(3000);
    assertThat(read.at("/types/_time").asText()).isEqualTo("timestamp[us, tz=UTC]");
    // two statuses in every page: dictionary-encoded, a dictionary batch per page
    assertThat(read.at("/types/status").asText())
        .isEqualTo("dictionary<values=string, indices=int32, ordered=0>");
    List<JsonNode> eventsJson = jsonRows("index=main | table _time, status, ms");
    assertThat(eventsJson).hasSize(3000);
    for (int i = 0; i < 3000; i += 97) {
      assertThat(read.at("/rows/" + i + "/1").asText())
          .isEqualTo(eventsJson.get(i).get(1).asText());
      assertThat(read.at("/rows/" + i + "/2").asText())
          .isEqualTo(eventsJson.get(i).get(2).asText());
    }
    assertThat(read.at("/rows/0/0").asText()).startsWith("2026-01-01 00:49:59");
    assertThat(read.get("batches").asInt()).isGreaterThan(1);
  }
}
