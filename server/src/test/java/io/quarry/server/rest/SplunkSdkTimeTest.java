package io.quarry.server.rest;

import static io.quarry.server.rest.TimeResultsTest.multivalue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Splunk's own Python SDK ({@code splunk-sdk} 2.1.0, through {@link PythonVenv}) reads aggregations
 * over {@code _time} as Splunk answers them — epoch seconds, a fraction only when there is one —
 * from the export endpoint, a oneshot search and a job's JSON and XML results, and an event's or a
 * timechart's {@code _time} as ISO-8601 text. The events are {@link TimeResultsTest#EVENTS}; every
 * expected value is worked out by hand from them.
 */
class SplunkSdkTimeTest {

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, "sdk-pw");
    TimeResultsTest.load(server);
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void splunksPythonSdkReadsTimeAggregationsInEpochSeconds() throws Exception {
    JsonNode seen = PythonVenv.splunkSdk("/splunk-sdk/time_check.py", server.port(), "sdk-pw");

    for (String path : List.of("export", "oneshot", "jobJson", "jobXml")) {
      JsonNode rows = seen.get(path);
      assertThat(rows).as(path).hasSize(2);
      JsonNode db = rows.get(0);
      assertThat(db.get("host").asText()).isEqualTo("db");
      assertDbTimes(path, db);
      JsonNode web = rows.get(1);
      assertThat(web.get("host").asText()).isEqualTo("web");
      assertThat(web.get("min").asText()).as(path).isEqualTo("1767744000");
      assertThat(web.get("max").asText()).as(path).isEqualTo("1767747600");
      assertThat(web.get("earliest").asText()).as(path).isEqualTo("1767744000");
      assertThat(web.get("latest").asText()).as(path).isEqualTo("1767747600");
      assertThat(web.get("first").asText()).as(path).isEqualTo("1767747600");
      assertThat(web.get("last").asText()).as(path).isEqualTo("1767744000");
      assertThat(web.get("range").asText()).as(path).isEqualTo("3600");
      assertThat(multivalue(web.get("values")))
          .as(path)
          .containsExactly("1767744000", "1767747600");
      assertThat(web.get("avg").asText()).as(path).isEqualTo("1767745800");
    }

    // each function alone over the db events (T+7200.25 and T+7201.123456)
    assertDbTimes("each", seen.get("each"));

    assertThat(seen.get("events").toString())
        .isEqualTo("[\"2026-01-07T02:00:01.123+00:00\",\"2026-01-07T02:00:00.250+00:00\"]");
    assertThat(seen.get("timechart").toString())
        .isEqualTo(
            "[{\"_time\":\"2026-01-07T00:00:00.000+00:00\",\"count\":\"1\",\"newest\":\"1767744000\"},"
                + "{\"_time\":\"2026-01-07T01:00:00.000+00:00\",\"count\":\"1\",\"newest\":\"1767747600\"},"
                + "{\"_time\":\"2026-01-07T02:00:00.000+00:00\",\"count\":\"2\","
                + "\"newest\":\"1767751201.123456\"}]");
    assertThat(seen.get("where").toString()).isEqualTo("[{\"count\":\"2\"}]");
  }

  /** The db host's aggregations: its events are at 1767751200.25 and 1767751201.123456. */
  private static void assertDbTimes(String path, JsonNode db) {
    assertThat(db.get("min").asText()).as(path).isEqualTo("1767751200.25");
    assertThat(db.get("max").asText()).as(path).isEqualTo("1767751201.123456");
    assertThat(db.get("earliest").asText()).as(path).isEqualTo("1767751200.25");
    assertThat(db.get("latest").asText()).as(path).isEqualTo("1767751201.123456");
    assertThat(db.get("first").asText()).as(path).isEqualTo("1767751201.123456"); // newest first
    assertThat(db.get("last").asText()).as(path).isEqualTo("1767751200.25");
    assertThat(db.get("range").asText()).as(path).isEqualTo("0.873456");
    assertThat(multivalue(db.get("values")))
        .as(path)
        .containsExactly("1767751200.25", "1767751201.123456");
    assertThat(Double.parseDouble(db.get("avg").asText())) // (…200.25 + …201.123456) / 2
        .as(path)
        .isCloseTo(1_767_751_200.686728, within(1e-6));
  }
}
