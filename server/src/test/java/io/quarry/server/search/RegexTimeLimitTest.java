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
 * A user's regular expression that backtracks exponentially (here with a back reference, which no
 * regex engine can run in linear time) ends with its search's time limit: the search answers soon
 * after {@code max_time}, says it stopped, and the server searches on.
 */
class RegexTimeLimitTest {
  private static final String PASSWORD = "regex-pw";
  private static final String EVIL = "^(?<x>(a|aa)+(\\\\1))$";

  @TempDir Path dataDirectory;
  private QuarryServer server;

  @BeforeEach
  void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      lines.append("a".repeat(46)).append("b\n");
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
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab | rex \"" + EVIL + "\" | stats count",
      "* | rex field=_raw mode=sed \"s/(a|aa)+\\\\1b/x/g\" | stats count",
      "* | eval m=match(_raw, \"" + EVIL + "\") | stats count",
      "* | eval r=replace(_raw, \"(a|aa)+(\\\\1)c\", \"x\") | stats count",
      "* | where match(_raw, \"" + EVIL + "\") | stats count",
    };
    for (String search : searches) {
      long started = System.nanoTime();
      HttpResponse<String> response = export(search, 1);
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      assertThat(response.statusCode()).as(search + ": " + response.body()).isEqualTo(200);
      assertThat(took).as(search).isLessThan(Duration.ofSeconds(10));
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
