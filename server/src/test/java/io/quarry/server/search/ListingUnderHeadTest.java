package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A listing whose pages go on to other commands before a {@code head 5} — a plugin command's
 * batches ({@link PluginOverEvents}: one run, two runs), a wildcard rename's ({@link
 * RenameOverEvents}), the every-field pages of {@code table *} — takes the five rows the head can
 * use, not a page of 1,024 ({@link EventListings#batches}): the scan reads five events and stops,
 * and the answer is the newest five. One real server, the same 3,000 events in an index of each
 * layout.
 */
class ListingUnderHeadTest {
  private static final String PASSWORD = "listing-head-password";
  private static final String TOKEN = "listing-head-token";
  private static final long START = 1767780000L; // 2026-01-07T10:00:00Z
  private static final int EVENTS = 3000;

  @TempDir static Path root;
  private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TOKEN, Map.of());
    for (String index : List.of("ev", "bl")) {
      StringBuilder body = new StringBuilder();
      for (int i = 0; i < EVENTS; i++) {
        body.append(
            String.format(
                "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"st\",\"index\":\"%s\","
                    + "\"event\":\"n=%d kind=k%d\"}%n",
                START + i * 7L, index, i, i % 3));
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
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aListingUnderAHeadTakesTheHeadsRowsAndTheScanStops() throws Exception {
    for (String index : List.of("ev", "bl")) {
      for (String tail :
          List.of(
              "fillnull value=0 kind | head 5",
              "mvexpand kind | head 5",
              "eval m=1 | mvexpand kind | eval o=2 | fillnull value=1 o | head 5",
              "table * | head 5",
              "rename k* AS z* | head 5")) {
        String query = "search index=" + index + " | " + tail;
        HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
        assertThat(response.statusCode()).as(query + ": " + response.body()).isEqualTo(200);
        List<String> raws = new ArrayList<>();
        Matcher raw = Pattern.compile("\"_raw\":\"(n=\\d+) ").matcher(response.body());
        while (raw.find()) {
          raws.add(raw.group(1));
        }
        assertThat(raws)
            .as(query)
            .containsExactly("n=2999", "n=2998", "n=2997", "n=2996", "n=2995");
        SearchStats stats =
            server.search().run(query, server.search().plan(query, null, null), page -> {});
        assertThat(stats.eventsRead()).as(query).isEqualTo(5);
        assertThat(stats.stages().getLast().rowsIn()).as(query).isEqualTo(5);
      }
    }
  }
}
