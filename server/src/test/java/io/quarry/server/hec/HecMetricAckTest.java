package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Indexer acknowledgement for metric points, as for events: a metric body on an acknowledging token
 * gets an ack id, the id reads true once, the acknowledged points are searchable and still there,
 * exactly once, after the server restarts; a body stopped at a point for an event index is refused
 * whole (none of its points kept) and gets no ack id.
 */
class HecMetricAckTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";
  private static final String CHANNEL = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";

  @TempDir Path dataDirectory;
  private final HttpClient http = HttpClient.newHttpClient();

  private QuarryServer start() throws Exception {
    return QuarryServer.start(
        TestServers.settings(dataDirectory, PASSWORD)
            .put("server.maxRequestBytes", 8L << 20)
            .put("indexes", List.of("main", "m"))
            .put(
                "hec.tokens",
                List.of(new HecToken("acked", "acked", "main", List.of("main", "m"), true)))
            .put("storage.indexes.m.datatype", "metric")
            .put("storage.indexes.m.maxBucketPoints", 200L)
            .build(),
        Clock.systemUTC());
  }

  private static String envelope(String index, String host, long time) {
    return "{\"time\": "
        + time
        + ", \"event\": \"metric\", \"index\": \""
        + index
        + "\", \"host\": \""
        + host
        + "\", \"fields\": {\"metric_name:cpu.user\": 12.5, \"metric_name:cpu.sys\": 3.1}}";
  }

  private HttpResponse<String> post(QuarryServer server, String path, String body)
      throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(server.url() + path))
            .header("Authorization", "Splunk acked")
            .header(HecRoutes.CHANNEL_HEADER, CHANNEL)
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private long points(QuarryServer server) throws Exception {
    HttpResponse<String> response =
        TestServers.export(server, PASSWORD, "| mstats count(_value) AS n where index=m");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    for (String line : response.body().split("\n")) {
      JsonNode row = JSON.readTree(line);
      if (row.has("result")) {
        return row.get("result").get("n").asLong();
      }
    }
    return 0;
  }

  @Test
  void metricPointsAreAcknowledgedAndKeptAcrossARestart() throws Exception {
    long t0 = System.currentTimeMillis() / 1000 - 600;
    try (QuarryServer server = start()) {
      HttpResponse<String> sent =
          post(
              server,
              "/services/collector/event",
              envelope("m", "h1", t0) + envelope("m", "h2", t0) + envelope("m", "h1", t0 + 10));
      assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
      long ackId = JSON.readTree(sent.body()).get("ackId").asLong();

      HttpResponse<String> status =
          post(server, "/services/collector/ack", "{\"acks\": [" + ackId + "]}");
      assertThat(JSON.readTree(status.body()).get("acks").get(String.valueOf(ackId)).asBoolean())
          .as(status.body())
          .isTrue();
      assertThat(points(server)).isEqualTo(6);

      // stopped at the envelope for an event index: refused whole (the point before it is not
      // kept either), no ack id given
      HttpResponse<String> stopped =
          post(
              server,
              "/services/collector/event",
              envelope("m", "h3", t0) + envelope("main", "h3", t0) + envelope("m", "h4", t0));
      assertThat(stopped.statusCode()).as(stopped.body()).isEqualTo(400);
      JsonNode error = JSON.readTree(stopped.body());
      assertThat(error.get("code").asInt()).isEqualTo(7);
      assertThat(error.get("text").asText() + error).contains("main");
      assertThat(error.has("ackId")).isFalse();
      assertThat(points(server)).isEqualTo(6);
    }
    try (QuarryServer restarted = start()) {
      assertThat(points(restarted)).isEqualTo(6);
    }
  }
}
