package io.quarry.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two APIs that list indexes, on a real server over HTTP: Splunk's {@code data/indexes} gives
 * the events, size and time range that {@code GET /api/v1/indexes} gives (one source, {@link
 * IndexTotals}) and that the test itself knows from what it sent, with the index's retention as
 * configured; and every member {@code GET /api/v1/indexes} answers is declared, with its type, in
 * the OpenAPI document's {@code IndexList} schema.
 */
class IndexListingsTest {
  private static final String PASSWORD = "listings-password";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long FIRST_SECOND = 1_767_225_600L; // 2026-01-01T00:00:00Z
  private static final int EVENTS = 500;
  // the metric index's retention: long, so its points of 2026-01-01 stay
  private static final int METRIC_DAYS = 3_650;

  @TempDir static Path data;
  private static QuarryServer server;

  @BeforeAll
  static void load() throws Exception {
    server =
        TestServers.start(
            data,
            PASSWORD,
            settings ->
                TestServers.withMetricIndex(settings, 10_000L)
                    .put("storage.indexes.m.maxAgeDays", METRIC_DAYS)
                    .put("storage.indexes.main.maxAgeDays", 30)
                    .put("storage.indexes.main.maxTotalBytes", 3L * 1024 * 1024 * 1024));
    StringBuilder events = new StringBuilder();
    for (int i = 0; i < EVENTS; i++) {
      Map<String, Object> envelope = new LinkedHashMap<>();
      envelope.put("time", FIRST_SECOND + 7L * i);
      envelope.put("event", "event " + i + " status=" + (200 + i % 3));
      envelope.put("index", "main");
      events.append(JSON.writeValueAsString(envelope)).append('\n');
    }
    TestServers.postEvents(server, TestServers.TOKEN, events.toString());
    StringBuilder points = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      points
          .append(
              JSON.writeValueAsString(
                  Map.of(
                      "time",
                      FIRST_SECOND + i,
                      "event",
                      "metric",
                      "index",
                      "m",
                      "fields",
                      Map.of("metric_name:cpu", i * 0.5))))
          .append('\n');
    }
    TestServers.postEvents(server, TestServers.TOKEN, points.toString());
    TestServers.awaitCount(server, PASSWORD, "main", EVENTS, 300);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  @Test
  void splunksIndexEntryHasTheTotalsOfQuarrysListing() throws Exception {
    JsonNode quarry = eventIndex(get("/api/v1/indexes"), "main");
    JsonNode content = get("/services/data/indexes/main?output_mode=json").at("/entry/0/content");
    assertThat(content.path("totalEventCount").asLong()).as(content.toString()).isEqualTo(EVENTS);
    assertThat(quarry.path("events").asLong()).isEqualTo(EVENTS);
    assertThat(content.path("minTime").asText()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(content.path("maxTime").asText())
        .isEqualTo(java.time.Instant.ofEpochSecond(FIRST_SECOND + 7L * (EVENTS - 1)).toString());
    assertThat(quarry.path("earliestMicros").asLong()).isEqualTo(FIRST_SECOND * 1_000_000L);
    assertThat(content.path("currentDBSizeMB").asLong())
        .isEqualTo(quarry.path("bytesOnDisk").asLong() / (1024 * 1024));
    assertThat(content.path("numBuckets").asInt()).isEqualTo(quarry.path("buckets").size());
    assertThat(content.path("datatype").asText()).isEqualTo("event");
    assertThat(content.path("isReady").asBoolean()).isTrue();
    assertThat(content.path("maxTotalDataSizeMB").asLong()).isEqualTo(3L * 1024);
    assertThat(content.path("frozenTimePeriodInSecs").asLong()).isEqualTo(30L * 86_400);
    // Quarry's journal breakdown, as /api/v1/indexes gives it (session 44)
    assertThat(content.path("journalRawBytes").asLong())
        .as(content.toString())
        .isPositive()
        .isEqualTo(quarry.path("journalRawBytes").asLong());
    assertThat(content.path("journalBytes").asLong())
        .isPositive()
        .isEqualTo(quarry.path("journalBytes").asLong());
    assertThat(content.path("bytesByKind")).isEqualTo(quarry.path("bytesByKind"));

    // the listing has the same entry
    JsonNode listed = get("/services/data/indexes?output_mode=json&count=0").path("entry");
    boolean found = false;
    for (JsonNode entry : listed) {
      if (entry.path("name").asText().equals("main")) {
        assertThat(entry.path("content")).isEqualTo(content);
        found = true;
      }
    }
    assertThat(found).as(listed.toString()).isTrue();
  }

  /**
   * A metric index is in Splunk's listing too when asked ({@code datatype=metric} or {@code all}),
   * {@code datatype: metric}, its data points as its {@code totalEventCount}, the same as {@code
   * /api/v1/indexes}' {@code metricIndexes} (before session 44 Splunk's listing had event indexes
   * only).
   */
  @Test
  void splunksListingHasTheMetricIndex() throws Exception {
    JsonNode content = null;
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (System.nanoTime() < deadline) {
      content = get("/services/data/indexes/m?output_mode=json").at("/entry/0/content");
      if (content.path("totalEventCount").asLong() == 50) {
        break;
      }
      Thread.sleep(50); // the points are stored
    }
    assertThat(content.path("datatype").asText()).as(content.toString()).isEqualTo("metric");
    assertThat(content.path("totalEventCount").asLong()).as(content.toString()).isEqualTo(50);
    assertThat(content.path("minTime").asText()).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(content.path("maxTime").asText()).isEqualTo("2026-01-01T00:00:49Z");
    JsonNode quarry = get("/api/v1/indexes").path("metricIndexes").get(0);
    assertThat(content.path("points").asLong()).isEqualTo(quarry.path("points").asLong());
    assertThat(content.path("hotPoints").asLong()).isEqualTo(quarry.path("hotPoints").asLong());
    // its retention, as an event index's (session 45; before, none was listed): by age alone
    assertThat(content.path("frozenTimePeriodInSecs").asLong())
        .as(content.toString())
        .isEqualTo(METRIC_DAYS * 86_400L);
    assertThat(content.path("maxTotalDataSizeMB").asLong()).isZero();
    // Splunk's common fields, as an event index has them
    assertThat(content.path("disabled").asBoolean()).isFalse();
    assertThat(content.path("isInternal").asBoolean()).isFalse();
    assertThat(content.path("isReady").asBoolean()).isTrue();
    // as Splunk's: event indexes unless datatype asks for metric ones or all
    assertThat(names("")).contains("main").doesNotContain("m");
    assertThat(names("&datatype=metric")).containsExactly("m");
    assertThat(names("&datatype=all")).contains("main", "m");
  }

  private static List<String> names(String parameters) throws Exception {
    JsonNode listed =
        get("/services/data/indexes?output_mode=json&count=0" + parameters).path("entry");
    List<String> names = new java.util.ArrayList<>();
    listed.forEach(entry -> names.add(entry.path("name").asText()));
    return names;
  }

  @Test
  void everyMemberOfTheListingIsInTheOpenApiSchema() throws Exception {
    JsonNode document =
        JSON.readTree(
            HttpClient.newHttpClient()
                .send(
                    HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/openapi.json"))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .body());
    JsonNode schema =
        document.at("/paths/~1api~1v1~1indexes/get/responses/200/content/application~1json/schema");
    JsonNode listing = get("/api/v1/indexes");
    assertThat(listing.path("indexes").size()).isGreaterThanOrEqualTo(1);
    assertThat(listing.path("metricIndexes").size()).isEqualTo(1);
    assertThat(eventIndex(listing, "main").path("buckets").size()).isGreaterThanOrEqualTo(1);
    assertThat(eventIndex(listing, "main").at("/journal/0/codec").isTextual()).isTrue();
    conforms(document, schema, listing, "$");
  }

  /** Fails unless {@code value} has the type {@code schema} says, each member declared. */
  private static void conforms(JsonNode document, JsonNode schema, JsonNode value, String at) {
    if (schema.has("$ref")) {
      String ref = schema.path("$ref").asText();
      conforms(document, document.at(ref.substring(1)), value, at);
      return;
    }
    if (value.isNull()) {
      assertThat(schema.path("nullable").asBoolean()).as("%s is null: nullable", at).isTrue();
      return;
    }
    String type = schema.path("type").asText();
    switch (type) {
      case "object" -> {
        assertThat(value.isObject()).as("%s is an object: %s", at, value).isTrue();
        JsonNode properties = schema.path("properties");
        JsonNode additional = schema.path("additionalProperties");
        for (Iterator<Map.Entry<String, JsonNode>> it = value.properties().iterator();
            it.hasNext(); ) {
          Map.Entry<String, JsonNode> member = it.next();
          String path = at + "." + member.getKey();
          if (properties.has(member.getKey())) {
            conforms(document, properties.path(member.getKey()), member.getValue(), path);
          } else {
            assertThat(additional.isObject()).as("%s is not declared in the schema", path).isTrue();
            conforms(document, additional, member.getValue(), path);
          }
        }
      }
      case "array" -> {
        assertThat(value.isArray()).as("%s is an array: %s", at, value).isTrue();
        for (int i = 0; i < value.size(); i++) {
          conforms(document, schema.path("items"), value.get(i), at + "[" + i + "]");
        }
      }
      case "integer" -> assertThat(value.isIntegralNumber()).as("%s is an integer", at).isTrue();
      case "number" -> assertThat(value.isNumber()).as("%s is a number", at).isTrue();
      case "string" -> {
        assertThat(value.isTextual()).as("%s is a string", at).isTrue();
        if (schema.has("enum")) {
          assertThat(schema.path("enum").toString()).as(at).contains("\"" + value.asText() + "\"");
        }
      }
      case "boolean" -> assertThat(value.isBoolean()).as("%s is a boolean", at).isTrue();
      default -> throw new AssertionError(at + ": the schema says no type: " + schema);
    }
  }

  private static JsonNode eventIndex(JsonNode listing, String name) {
    for (JsonNode index : listing.path("indexes")) {
      if (index.path("name").asText().equals(name)) {
        return index;
      }
    }
    throw new AssertionError("no index " + name + " in " + listing);
  }

  private static JsonNode get(String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + path))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }
}
