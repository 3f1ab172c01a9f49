package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's regular expression that backtracks catastrophically ({@code ^((a|aa)+)\2c$} against 46
 * {@code a}s and a {@code b}: every split of the {@code a}s into ones and twos, about 3·10^9, is
 * tried; the back reference keeps it off the linear-time matcher, and it is measured to grow 1.6×
 * per {@code a}) ends with its search's time limit: the search answers soon after {@code max_time},
 * says it stopped, and the server searches on.
 */
class RegexTimeLimitTest {
  private static final String PASSWORD = "regex-pw";
  private static final String EVIL = "^(?<x>(a|aa)+)\\2c$";

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      lines.append("a".repeat(46)).append("bc\n"); // the c a prefilter may look for is there
    }
    TestServers.loadRaw(server, lines.toString());
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  @Test
  void everyRegexTakingCommandAndFunctionStopsAtTheTimeLimit() throws Exception {
    String[] searches = {
      // each result is used, or the engine would rightly skip computing it
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaabc | rex \"" + EVIL + "\" | stats count by x",
      "* | rex field=_raw mode=sed \"s/^((a|aa)+)\\2c$/x/g\" | stats dc(_raw)",
      "* | eval m=match(_raw, \"" + EVIL + "\") | stats count by m",
      "* | eval r=replace(_raw, \"^((a|aa)+)\\2c$\", \"x\") | stats dc(r)",
      "* | where match(_raw, \"" + EVIL + "\") | stats count",
    };
    for (String search : searches) {
      long started = System.nanoTime();
      HttpResponse<String> response = export(search, 1);
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(response.statusCode()).as(search + ": " + response.body()).isEqualTo(200);
      assertThat(took).as(search).isLessThan(Duration.ofSeconds(10));
      assertThat(response.body())
          .as("%s stopped at its limit and says so", search)
          .contains("search stopped after its time limit");
    }
    HttpResponse<String> after = export("* | stats count", 0);
    assertThat(after.body()).contains("\"count\":\"4\"");
  }

  private HttpResponse<String> export(String search, int maxTimeSeconds) throws Exception {
    String body =
        "output_mode=json&max_time="
            + maxTimeSeconds
            + "&search="
            + URLEncoder.encode(search, StandardCharsets.UTF_8);
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/search/jobs/export"))
                .header("Authorization", TestServers.basic(PASSWORD))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }
}
