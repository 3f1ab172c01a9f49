package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.SourcetypeSettings.IndexExtractionSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index-time {@code regex} fields through a real server, over HEC's raw and event endpoints: the
 * access-log extraction and a session regex (answered from the event's bytes for ASCII raw lines;
 * from its text for the others, /event's strings with a JSON escape included — every access-log
 * line's quotes) give fields a search finds by term, {@code stats} groups by and {@code tstats}
 * reads from the index alone. The session is named {@code session}, a name no search-time
 * extraction gives, so only the index-time extraction can answer.
 */
class IndexTimeRegexFieldsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String PASSWORD = "pw";
  private static final String ACCESS_LOG =
      "^(?<clientip>\\S+) \\S+ \\S+ \\[[^\\]]+\\] \"(?<method>[A-Z]+) (?<uri_path>[^\\s?\"]*)[^\"]*\""
          + " (?<status>\\d{3}) ";

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server =
        TestServers.start(
            dataDirectory,
            PASSWORD,
            settings ->
                settings.put(
                    "sourcetypes",
                    Map.of(
                        "web",
                        new SourcetypeSettings.Builder()
                            .indexExtractions(
                                List.of(
                                    new IndexExtractionSettings("regex", ACCESS_LOG),
                                    new IndexExtractionSettings(
                                        "regex", "JSESSIONID=(?<session>[^&\\s\"]+)")))
                            .build())));
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private static String line(String ip, String query, int status) {
    return ip
        + " - - [07/Jan/2026:00:00:0"
        + status % 10
        + " +0000] \"GET /cart.do?"
        + query
        + " HTTP 1.1\" "
        + status
        + " 17 \"-\" \"ua\"";
  }

  /** Each row's {@code by} value and count, from a search's JSON lines. */
  private Map<String, Long> counts(String query, String by) throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    Map<String, Long> counts = new TreeMap<>();
    for (String line : response.body().split("\n")) {
      JsonNode row = JSON.readTree(line);
      if (row.has("result")) {
        JsonNode result = row.get("result");
        counts.put(by == null ? "" : result.path(by).asText(), result.get("count").asLong());
      }
    }
    return counts;
  }

  @Test
  void aRegexFieldIsSearchableAndGroupedAsBefore() throws Exception {
    String raw =
        String.join(
            "\n",
            line("10.0.0.1", "JSESSIONID=SD1&item=2", 200),
            line("10.0.0.2", "a=1&JSESSIONID=SD2", 404),
            line("10.0.0.3", "JSESSIONID=SD1", 200),
            line("10.0.0.4", "none=here", 200),
            line("10.0.0.5", "JSESSIONID=SD\u00e93", 500), // non-ASCII: the text's path
            "not an access log line JSESSIONID=SD2 at all"); // the parser refuses it: the text's
    HttpResponse<String> loaded = TestServers.postRaw(server, TestServers.TOKEN, "web", raw);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    TestServers.postEvents(
        server,
        TestServers.TOKEN,
        "{\"sourcetype\":\"web\",\"event\":"
            + JSON.writeValueAsString(line("10.0.0.6", "JSESSIONID=SD2&z", 200))
            + "}{\"sourcetype\":\"web\",\"event\":"
            + JSON.writeValueAsString(line("10.0.0.7", "JSESSIONID=SD4", 503))
            + "}");

    Map<String, Long> bySession = Map.of("SD1", 2L, "SD2", 3L, "SD4", 1L, "SD\u00e93", 1L);
    assertThat(counts("| tstats count where sourcetype=web by session", "session"))
        .isEqualTo(bySession);
    assertThat(counts("search sourcetype=web | stats count by session", "session"))
        .isEqualTo(bySession);
    assertThat(counts("search sourcetype=web session=SD2 | stats count", null))
        .isEqualTo(Map.of("", 3L));
    assertThat(counts("search sourcetype=web session=SD | stats count", null))
        .isEqualTo(Map.of("", 0L));
    assertThat(counts("| tstats count where sourcetype=web by status", "status"))
        .isEqualTo(Map.of("200", 4L, "404", 1L, "500", 1L, "503", 1L));
    assertThat(counts("| tstats count where sourcetype=web by clientip", "clientip"))
        .containsEntry("10.0.0.6", 1L)
        .hasSize(7);
  }
}
