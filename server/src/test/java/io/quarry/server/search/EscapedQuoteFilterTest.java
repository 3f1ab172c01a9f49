package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review (session 35): under {@code kvMode: auto_escaped} (the built-in {@code stash}, a sourcetype
 * whose data escapes quotes), a pair hidden inside a quoted value by an escaped quote ({@code
 * msg="x\" count=999999 y="}) is no pair on any path a search reads key=value fields by: the
 * search's own filter, {@code where}, a group, a field's values, many such lines in one block.
 * ({@code auto} reads the backslash as an ordinary character, as props.conf.spec has it: {@code
 * KeyPlacesSearchTest}, {@code KvModeAgreementTest}.)
 */
class EscapedQuoteFilterTest {
  private static final String ADMIN = TestHttp.basic("admin", "filter-pw");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestServers.start(
            directory,
            "filter-pw",
            settings ->
                settings.put(
                    "sourcetypes",
                    Map.of(
                        "esc", new SourcetypeSettings.Builder().kvMode("auto_escaped").build())));
    http = new TestHttp(server.url());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      lines.append(
          switch (i % 4) {
            case 0 -> "msg=\"x\\\" count=999999 y=\" n=" + i + "\n";
            case 1 -> "k=\"a\\\\\" count=999999\" n=" + i + "\n"; // count is a real pair here
            case 2 -> "count=7 q=\"p\\\" count=999999 \" n=" + i + "\n";
            default -> "plain count=5 n=" + i + "\n";
          });
    }
    HttpResponse<String> loaded =
        TestServers.postRaw(server, TestServers.TOKEN, "esc", lines.toString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @Test
  void aPairInsideAnEscapedQuotedValueIsNoPairOnAnyPath() throws Exception {
    // case 1: k's value is a\ (the \\ an escaped backslash), so count=999999" is a real pair:
    // 999999
    assertThat(count("index=main count=999999")).isEqualTo(50);
    assertThat(count("index=main | where count=999999")).isEqualTo(50);
    assertThat(count("index=main | search count=999999")).isEqualTo(50);
    JsonNode groups =
        http.export(ADMIN, "index=main | stats count as c by count | sort count | table count, c");
    assertThat(groups.toString())
        .isEqualTo(
            "[{\"count\":\"5\",\"c\":\"50\"},{\"count\":\"7\",\"c\":\"50\"},"
                + "{\"count\":\"999999\",\"c\":\"50\"}]");
    assertThat(count("index=main count=7")).isEqualTo(50);
    assertThat(count("index=main | head 200 | where count=999999")).isEqualTo(50);
  }

  private static long count(String query) throws Exception {
    return http.export(ADMIN, query + " | stats count").get(0).path("count").asLong();
  }
}
