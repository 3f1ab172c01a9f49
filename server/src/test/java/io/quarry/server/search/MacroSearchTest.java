package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.QuarryConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Search macros from the configuration expand in searches; an unknown one is a 400 naming it. */
class MacroSearchTest {
  private static final String PASSWORD = "macro-pw";

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    QuarryConfig.Search search =
        new QuarryConfig.Search(
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            Map.of(
                "failures",
                new QuarryConfig.MacroSettings("status=500", null),
                "count_by(1)",
                new QuarryConfig.MacroSettings("stats count by $field$", List.of("field"))));
    server = TestServers.start(dataDirectory, PASSWORD, search, null, null);
    TestServers.loadRaw(
        server,
        "2026-01-01 00:00:01 status=500 node=a\n"
            + "2026-01-01 00:00:02 status=200 node=a\n"
            + "2026-01-01 00:00:03 status=500 node=b\n"
            + "2026-01-01 00:00:04 status=500 node=b\n");
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void configuredMacrosExpandWithTheirArguments() throws Exception {
    HttpResponse<String> response =
        TestServers.export(server, PASSWORD, "`failures` | `count_by(node)`");
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    assertThat(response.body())
        .contains("\"result\":{\"node\":\"a\",\"count\":\"1\"}")
        .contains("\"result\":{\"node\":\"b\",\"count\":\"2\"}");
  }

  @Test
  void anUnknownMacroIsA400NotASearchForItsName() throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, "`nosuch` | stats count");
    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("Unknown search macro 'nosuch'");
  }
}
