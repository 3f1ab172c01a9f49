package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The block layout's counts from per-block value counts (issue 23): {@code stats count}, {@code
 * stats count by f}, {@code top f} and {@code timechart count by f}, with and without a filter the
 * blocks decide, over time ranges that cut blocks, multivalued and missing fields, values that
 * differ in case and hosts that change within a block — the same answer as the event layout over
 * the same events (one real server, an index of each format), and as the block layout's own row
 * path; and the blocks it counts are not decoded.
 */
class RunDecodeReviewTest {
  private static final String PASSWORD = "block-count-password";
  private static final String TOKEN = "block-count-token";
  private static final long START = 1767780000L; // 2026-01-07T10:00:00Z

  @TempDir static Path root;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    for (String index : List.of("ev", "bl")) {
      for (int batch = 0; batch < 3; batch++) {
        post(index, batch);
      }
    }
  }

  /**
   * 1,000 events 7 s apart, 250 to a request: a block (at most one request's events) spans about
   * half an hour, so some lie inside one hour of a {@code timechart}, some inside a search's range.
   */
  private static void post(String index, int batch) throws Exception {
    for (int from = 0; from < 1000; from += 250) {
      post(index, batch, from, from + 250);
    }
  }

  private static void post(String index, int batch, int from, int to) throws Exception {
    StringBuilder body = new StringBuilder();
    String[] levels = {"info", "WARN", "Error", "info"};
    String[] codes = {"200", "404", "500", "503", "200"};
    for (int n = from; n < to; n++) {
      int i = batch * 1000 + n;
      String level = i % 13 == 0 ? "warn" : levels[i % 4];
      String tags =
          switch (i % 3) {
            case 0 -> "[\"a\",\"b\"]";
            case 1 -> "\"b\"";
            default -> i % 30 == 2 ? null : "\"c\"";
          };
      String code = batch == 0 && i % 97 == 0 ? "abc" : codes[i % 5];
      body.append(
          String.format(
              "{\"time\":%d,\"host\":\"h%d\",\"sourcetype\":\"tags\",\"index\":\"%s\","
                  + "\"event\":\"event %d level %s\",\"fields\":{\"level\":\"%s\",\"code\":\"%s\"%s}}%n",
              START + i * 7L,
              batch == 2 ? 9 : i % 3,
              index,
              i,
              level,
              level,
              code,
              tags == null ? "" : ",\"tag\":" + tags));
    }
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
                    .header("Authorization", "Splunk " + TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
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

  private static SearchStats stats(String query) throws Exception {
    return server.search().run(query, server.search().plan(query, null, null), page -> {});
  }

  /**
   * review-c: a page-engine search reading only a counted index-time field (held elsewhere) decoded
   * no journal block before the block runs (only _time, _raw, a payload column or the column names
   * decode the payload); a run decodes its block in EventRun's constructor whatever the columns.
   */
  @Test
  void aCountedFieldReadByPagesDecodesNoBlock() throws Exception {
    StringBuilder costs = new StringBuilder();
    for (String search :
        List.of(
            "| stats dc(level)",
            "| eval l=level | stats count by l",
            "| stats values(code) AS c by level",
            "| stats count by code")) {
      SearchStats counted = stats("search index=bl " + search);
      costs
          .append(search)
          .append(" -> journalBlocks=")
          .append(counted.scanCosts().journalBlocks())
          .append('\n');
    }
    System.out.println("REVIEW-C\n" + costs);
    assertThat(costs.toString())
        .doesNotContain("journalBlocks=1")
        .doesNotContain("journalBlocks=2")
        .doesNotContain("journalBlocks=3")
        .doesNotContain("journalBlocks=4")
        .doesNotContain("journalBlocks=5")
        .doesNotContain("journalBlocks=6")
        .doesNotContain("journalBlocks=7")
        .doesNotContain("journalBlocks=8")
        .doesNotContain("journalBlocks=9");
  }
}
