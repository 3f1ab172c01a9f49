package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.benchmarks.data.AccessLogGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON lines VictoriaLogs is fed carry each line whole and its fields split out. */
class VictoriaLogsLinesTest {
  @TempDir Path dir;

  @Test
  void everyLineKeepsItsTextAndGetsItsFields() throws Exception {
    Path log = dir.resolve("access.log");
    Files.writeString(
        log,
        "10.1.2.3 - - [07/Jan/2026:01:02:03 +0100] \"GET /cart.do?a=1&JSESSIONID=SD1X HTTP 1.1\""
            + " 404 - \"http://r/\" \"UA \\\"quoted\\\"\"\n"
            + "not an access log line\n");
    List<String> lines =
        Files.readAllLines(VictoriaLogsLines.of(log, VictoriaLogsLines.Fields.ALL));
    assertThat(lines).hasSize(2);
    ObjectMapper json = new ObjectMapper();
    JsonNode first = json.readTree(lines.get(0));
    assertThat(first.path("_msg").asText()).isEqualTo(Files.readAllLines(log).get(0));
    assertThat(first.path("_time").asText()).isEqualTo("2026-01-07T01:02:03+01:00");
    assertThat(first.path("ts").asLong()).isEqualTo(1767744123L);
    assertThat(first.path("clientip").asText()).isEqualTo("10.1.2.3");
    assertThat(first.path("method").asText()).isEqualTo("GET");
    assertThat(first.path("uri").asText()).isEqualTo("/cart.do?a=1&JSESSIONID=SD1X");
    assertThat(first.path("uri_path").asText()).isEqualTo("/cart.do");
    assertThat(first.path("status").asInt()).isEqualTo(404);
    assertThat(first.has("bytes")).isFalse();
    assertThat(first.path("referer").asText()).isEqualTo("http://r/");
    assertThat(first.path("JSESSIONID").asText()).isEqualTo("SD1X");
    JsonNode second = json.readTree(lines.get(1));
    assertThat(second.path("_msg").asText()).isEqualTo("not an access log line");
    assertThat(second.has("_time")).isFalse();
  }

  @Test
  void theReferenceDatasetParsesWhole() throws Exception {
    Path log = dir.resolve("reference.log");
    new AccessLogGenerator(5_000, 7).write(log, 1);
    List<String> lines =
        Files.readAllLines(VictoriaLogsLines.of(log, VictoriaLogsLines.Fields.INDEX));
    assertThat(lines).hasSize(5_000);
    ObjectMapper json = new ObjectMapper();
    for (String line : lines) {
      JsonNode event = json.readTree(line);
      assertThat(event.has("_time") && event.has("status") && event.has("uri_path"))
          .as(line)
          .isTrue();
      assertThat(event.has("useragent") || event.has("JSESSIONID")).as(line).isFalse();
    }
  }
}
