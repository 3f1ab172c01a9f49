package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stats count by f} and {@code top f} over an index-time keyword field count its doc-values
 * ordinals instead of producing rows; events whose value only search-time extraction finds still
 * count, multivalues count once per value, and the answers equal the row path's (the same
 * aggregation behind an {@code eval}, which keeps the shortcut off).
 */
class KeywordCountShortcutTest {
  private static final String PASSWORD = "count-test-password";

  @TempDir static Path root;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server =
        io.quarry.server.TestServers.start(
            root.resolve("data"),
            PASSWORD,
            null,
            Map.of(
                "shop",
                new SourcetypeSettings.Builder()
                    // index time: only a user at the start of the line
                    .indexExtractions(
                        List.of(
                            new SourcetypeSettings.IndexExtractionSettings(
                                "regex", "^\\S+ user=(?<user>\\w+)")))
                    .fields(Map.of("user", "keyword"))
                    .build()),
            null);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 3000; i++) {
      String user = "u" + (i % 7);
      lines.append(
          i % 5 == 0
              ? "2026-01-07T10:00:00Z action=view user=" + user + "\n" // search-time value only
              : "2026-01-07T10:00:00Z user=" + user + " action=view\n");
    }
    lines.append("2026-01-07T10:00:00Z action=none\n");
    HttpResponse<String> loaded =
        io.quarry.server.TestServers.postRaw(server, "tok", "shop", lines.toString());
    assertThat(loaded.statusCode()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static String search(String query) throws Exception {
    HttpResponse<String> response = io.quarry.server.TestServers.export(server, PASSWORD, query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  @Test
  void countsEqualTheRowPath() throws Exception {
    String counted = search("sourcetype=shop | stats count by user");
    String rows = search("sourcetype=shop | eval x=1 | stats count by user");
    assertThat(counted).isEqualTo(rows);
    assertThat(counted)
        .contains("{\"user\":\"u0\",\"count\":\"429\"}")
        .contains("{\"user\":\"u6\",\"count\":\"428\"}");
    assertThat(search("sourcetype=shop | top user"))
        .isEqualTo(search("sourcetype=shop | eval x=1 | top user"));
    assertThat(search("sourcetype=shop user=u3 | stats count by user"))
        .contains("{\"user\":\"u3\",\"count\":\"429\"}");
  }
}
