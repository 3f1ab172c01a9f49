package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code _time} through the wire: aggregations over it are epoch seconds (a fraction only when
 * there is one) in Splunk's export and in the native JSON, while a {@code _time} column — an
 * event's, a timechart's, an aggregation named {@code _time} — is ISO-8601 text there and a
 * timestamp in Arrow. Four events sent over HEC with explicit times; every expected value is worked
 * out by hand from them.
 */
class TimeResultsTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * 2026-01-07T00:00:00Z is 1767744000: web at T and T+1h, db at T+2h+0.25 s and T+2h+1.123456 s.
   */
  private static final String EVENTS =
      """
      {"time": 1767744000, "host": "web", "sourcetype": "app", "event": "login user=amy"}
      {"time": 1767747600, "host": "web", "sourcetype": "app", "event": "logout user=amy"}
      {"time": 1767751200.25, "host": "db", "sourcetype": "app", "event": "query ms=12"}
      {"time": 1767751201.123456, "host": "db", "sourcetype": "app", "event": "query ms=30"}
      """;

  static final String EVERY_FUNCTION =
      "index=main | stats min(_time) AS min, max(_time) AS max, earliest(_time) AS earliest,"
          + " latest(_time) AS latest, first(_time) AS first, last(_time) AS last,"
          + " range(_time) AS range, values(_time) AS values, avg(_time) AS avg by host";

  @TempDir Path dataDirectory;
  private QuarryServer server;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, "pw");
    load(server);
  }

  /** Sends {@link #EVENTS} through HEC's event endpoint. */
  static void load(QuarryServer server) throws Exception {
    TestServers.postEvents(server, TestServers.TOKEN, EVENTS);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  /** The {@code result} objects of a search through Splunk's export endpoint. */
  private List<JsonNode> export(String query) throws Exception {
    return TestServers.exportRows(server, "pw", query);
  }

  /** One field of every result of an export, as text. */
  private List<String> exported(String query, String field) throws Exception {
    return export(query).stream().map(r -> r.path(field).asText(null)).toList();
  }

  /** A multivalue as its values: a JSON array, or (until multivalues are arrays) lines of text. */
  static List<String> multivalue(JsonNode node) {
    List<String> values = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(v -> values.add(v.asText()));
    } else {
      values.addAll(List.of(node.asText().split("\n")));
    }
    return values;
  }

  private HttpResponse<byte[]> native_(String accept, String query) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
            .header("Authorization", TestServers.basic("pw"))
            .header("Accept", accept)
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    JSON.writeValueAsString(Map.of("query", query))))
            .build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  /** The native JSON answer as rows of field -> value, with each field's type under "type:f". */
  private List<Map<String, JsonNode>> nativeRows(String query) throws Exception {
    HttpResponse<byte[]> response = native_("application/json", query);
    JsonNode body = JSON.readTree(response.body());
    assertThat(response.statusCode()).as(body.toString()).isEqualTo(200);
    List<Map<String, JsonNode>> rows = new ArrayList<>();
    for (JsonNode page : body.get("pages")) {
      JsonNode fields = page.get("fields");
      for (JsonNode row : page.get("rows")) {
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
          String name = fields.get(i).get("name").asText();
          values.put(name, row.get(i));
          values.put("type:" + name, fields.get(i).get("type"));
        }
        rows.add(values);
      }
    }
    return rows;
  }

  @Test
  void splunksExportAnswersEveryTimeAggregationInEpochSeconds() throws Exception {
    List<JsonNode> results = export(EVERY_FUNCTION);
    assertThat(results).hasSize(2);
    JsonNode db = results.get(0);
    JsonNode web = results.get(1);
    assertThat(db.get("host").asText()).isEqualTo("db");
    assertThat(db.get("min").asText()).isEqualTo("1767751200.25");
    assertThat(db.get("max").asText()).isEqualTo("1767751201.123456");
    assertThat(db.get("earliest").asText()).isEqualTo("1767751200.25");
    assertThat(db.get("latest").asText()).isEqualTo("1767751201.123456");
    assertThat(db.get("first").asText()).isEqualTo("1767751201.123456"); // newest first
    assertThat(db.get("last").asText()).isEqualTo("1767751200.25");
    assertThat(db.get("range").asText()).isEqualTo("0.873456");
    assertThat(multivalue(db.get("values"))).containsExactly("1767751200.25", "1767751201.123456");
    // (1767751200.25 + 1767751201.123456) / 2
    assertThat(Double.parseDouble(db.get("avg").asText()))
        .isCloseTo(1_767_751_200.686728, within(1e-6));

    assertThat(web.get("host").asText()).isEqualTo("web");
    assertThat(web.get("min").asText()).isEqualTo("1767744000");
    assertThat(web.get("max").asText()).isEqualTo("1767747600");
    assertThat(web.get("earliest").asText()).isEqualTo("1767744000");
    assertThat(web.get("latest").asText()).isEqualTo("1767747600");
    assertThat(web.get("first").asText()).isEqualTo("1767747600");
    assertThat(web.get("last").asText()).isEqualTo("1767744000");
    assertThat(web.get("range").asText()).isEqualTo("3600");
    assertThat(multivalue(web.get("values"))).containsExactly("1767744000", "1767747600");
    assertThat(web.get("avg").asText()).isEqualTo("1767745800");
  }

  @Test
  void eachFunctionAloneOverAllEvents() throws Exception {
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("min", "1767744000");
    expected.put("max", "1767751201.123456");
    expected.put("earliest", "1767744000");
    expected.put("latest", "1767751201.123456");
    expected.put("first", "1767751201.123456");
    expected.put("last", "1767744000");
    expected.put("range", "7201.123456");
    for (Map.Entry<String, String> function : expected.entrySet()) {
      String query = "index=main | stats " + function.getKey() + "(_time)";
      assertThat(exported(query, function.getKey() + "(_time)"))
          .as(query)
          .containsExactly(function.getValue());
    }
    assertThat(multivalue(export("index=main | stats values(_time)").get(0).get("values(_time)")))
        .containsExactly("1767744000", "1767747600", "1767751200.25", "1767751201.123456");
    // (4 × 1767744000 + 0 + 3600 + 7200.25 + 7201.123456) / 4
    assertThat(Double.parseDouble(exported("index=main | stats avg(_time)", "avg(_time)").get(0)))
        .isCloseTo(1_767_748_500.343364, within(1e-6));
  }

  @Test
  void timeColumnsAreIsoTextAndComparisonsReadSeconds() throws Exception {
    assertThat(exported("index=main host=db | table _time", "_time"))
        .containsExactly("2026-01-07T02:00:01.123+00:00", "2026-01-07T02:00:00.250+00:00");
    assertThat(exported("index=main | stats latest(_time) AS _time by host", "_time"))
        .containsExactly("2026-01-07T02:00:01.123+00:00", "2026-01-07T01:00:00.000+00:00");
    assertThat(exported("index=main | timechart span=1h count", "_time"))
        .containsExactly(
            "2026-01-07T00:00:00.000+00:00",
            "2026-01-07T01:00:00.000+00:00",
            "2026-01-07T02:00:00.000+00:00");
    assertThat(exported("index=main | timechart span=1h count", "count"))
        .containsExactly("1", "1", "2");
    assertThat(exported("index=main | timechart span=1h max(_time) AS newest", "newest"))
        .containsExactly("1767744000", "1767747600", "1767751201.123456");
    assertThat(exported("index=main | eval t=_time | stats max(t) AS t", "t"))
        .containsExactly("1767751201.123456");
    assertThat(exported("index=main | where _time >= 1767751200.25 | stats count", "count"))
        .containsExactly("2");
    assertThat(exported("index=main _time>1767747600 | stats count", "count")).containsExactly("2");
    assertThat(exported("index=main host=db | rename _time AS t | table t", "t"))
        .containsExactly("1767751201.123456", "1767751200.25");
    assertThat(exported("index=main host=web | bin _time span=1d AS day | table day", "day"))
        .containsExactly("1767744000", "1767744000");
  }

  @Test
  void theNativeJsonAnswersNumbersAndItsTimeColumnsAreTimestamps() throws Exception {
    List<Map<String, JsonNode>> rows = nativeRows(EVERY_FUNCTION);
    assertThat(rows).hasSize(2);
    Map<String, JsonNode> db = rows.get(0);
    Map<String, JsonNode> web = rows.get(1);
    assertThat(db.get("min").doubleValue()).isEqualTo(1_767_751_200.25);
    assertThat(db.get("max").doubleValue()).isEqualTo(1_767_751_201.123456);
    assertThat(db.get("earliest").doubleValue()).isEqualTo(1_767_751_200.25);
    assertThat(db.get("latest").doubleValue()).isEqualTo(1_767_751_201.123456);
    assertThat(db.get("first").doubleValue()).isEqualTo(1_767_751_201.123456);
    assertThat(db.get("last").doubleValue()).isEqualTo(1_767_751_200.25);
    assertThat(db.get("range").doubleValue()).isEqualTo(0.873456);
    assertThat(db.get("avg").doubleValue()).isCloseTo(1_767_751_200.686728, within(1e-6));
    assertThat(web.get("min").doubleValue()).isEqualTo(1_767_744_000.0);
    assertThat(web.get("max").doubleValue()).isEqualTo(1_767_747_600.0);
    assertThat(web.get("range").doubleValue()).isEqualTo(3600.0);
    assertThat(web.get("avg").doubleValue()).isEqualTo(1_767_745_800.0);
    for (String column : List.of("min", "max", "earliest", "latest", "first", "last", "range")) {
      // one type per column: whole in web, fractional in db
      assertThat(db.get("type:" + column).asText()).as(column).isEqualTo("double");
    }

    Map<String, JsonNode> whole =
        nativeRows("index=main host=web | stats min(_time), range(_time)").get(0);
    assertThat(whole.get("min(_time)").isIntegralNumber()).isTrue();
    assertThat(whole.get("min(_time)").longValue()).isEqualTo(1_767_744_000L);
    assertThat(whole.get("type:min(_time)").asText()).isEqualTo("long");
    assertThat(whole.get("range(_time)").longValue()).isEqualTo(3600L);

    Map<String, JsonNode> event = nativeRows("index=main host=db | head 1 | table _time").get(0);
    assertThat(event.get("type:_time").asText()).isEqualTo("timestamp");
    assertThat(event.get("_time").asText()).isEqualTo("2026-01-07T02:00:01.123+00:00");
  }

  @Test
  void arrowKeepsTimestampsTypedAndAggregatesNumeric() throws Exception {
    assertThat(arrowTypes("index=main host=db | head 1 | table _time").get("_time"))
        .isEqualTo(
            new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MICROSECOND, "UTC"));
    Map<String, ArrowType> stats =
        arrowTypes("index=main host=web | stats min(_time), max(_time), count by _time");
    assertThat(stats.get("_time")).isInstanceOf(ArrowType.Timestamp.class);
    assertThat(stats.get("min(_time)")).isEqualTo(new ArrowType.Int(64, true));
  }

  private Map<String, ArrowType> arrowTypes(String query) throws Exception {
    HttpResponse<byte[]> response = native_("application/vnd.apache.arrow.stream", query);
    assertThat(response.statusCode()).isEqualTo(200);
    Map<String, ArrowType> types = new LinkedHashMap<>();
    try (RootAllocator allocator = new RootAllocator();
        ArrowStreamReader reader =
            new ArrowStreamReader(new ByteArrayInputStream(response.body()), allocator)) {
      reader
          .getVectorSchemaRoot()
          .getSchema()
          .getFields()
          .forEach(f -> types.put(f.getName(), f.getType()));
    }
    return types;
  }
}
