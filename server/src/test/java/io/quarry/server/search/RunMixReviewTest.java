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
class RunMixReviewTest {
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
    for (int req = 0; req < 4; req++) {
      StringBuilder body = new StringBuilder();
      for (int n = 0; n < 250; n++) {
        int i = batch * 1000 + req * 250 + n;
        String text;
        String fields = "";
        switch ((req + batch) % 4) {
          case 0 -> {
            text = "event " + i + " v=r" + (i % 3);
            fields = ",\"fields\":{\"f\":\"ix" + (i % 4) + "\"}";
          }
          case 1 -> text = "event " + i + " f=t" + (i % 5) + (i % 2 == 0 ? " v=q" + (i % 2) : "");
          case 2 ->
              text =
                  switch (i % 4) {
                    case 0 -> "{\\\"f\\\":\\\"j" + (i % 3) + "\\\"}";
                    case 1 -> "event f=x" + (i % 3) + " f=y" + (i % 2);
                    case 2 -> "event " + i + " nothing";
                    default -> "event f=z v=w" + (i % 2);
                  };
          default -> {
            if (i % 2 == 0) {
              text = "event " + i + " f=k" + (i % 3);
            } else {
              text = "event " + i;
              fields = ",\"fields\":{\"f\":\"iy" + (i % 3) + "\"}";
            }
          }
        }
        body.append(
            String.format(
                "{\"time\":%d,\"host\":\"h\",\"sourcetype\":\"mix\",\"index\":\"%s\",\"event\":\"%s\"%s}%n",
                START + i * 7L, index, text, fields));
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

  private static String search(String query) throws Exception {
    HttpResponse<String> response = io.quarry.server.TestServers.export(server, PASSWORD, query);
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return response.body();
  }

  private static SearchStats stats(String query) throws Exception {
    return server.search().run(query, server.search().plan(query, null, null), page -> {});
  }

  /** review-c: runs (bl, no head) answer as events (ev) and the per-event path (head) do. */
  @Test
  void runsAnswerAsEvents() throws Exception {
    for (String q :
        List.of(
            "| stats count by f",
            "| rex \"v=(?<f>\\w+)\" | stats count by f",
            "| stats count, min(_time) AS lo by f")) {
      String ev = search("search index=ev " + q);
      String runs = search("search index=bl " + q);
      String head = search("search index=bl | head 100000 " + q);
      System.out.println("REVIEW-C " + q + "\n" + runs);
      assertThat(runs).as(q).isEqualTo(head);
      assertThat(runs).as(q).isEqualTo(ev);
    }
  }
}
