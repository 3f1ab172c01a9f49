package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.RunningServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Review of session 34 (review-c2), over a real server: a client reading a running job's results
 * (the UI, the Splunk SDK's results_preview) renders a batch {@code stats}' preview through the
 * commands after it; a {@code map} there runs its searches over the partial groups, and their
 * {@code collect} writes at every preview.
 */
class CollectMapPreviewWritesOnceTest {
  private static final String ADMIN = CollectServers.ADMIN;

  @RegisterExtension
  static final RunningServer SERVER =
      new RunningServer(TestConfig.ADMIN_PASSWORD, CollectMapPreviewWritesOnceTest::start);

  private final TestHttp http = SERVER.http();

  private static QuarryServer start(Path directory) throws Exception {
    QuarryServer server =
        TestConfig.yaml("indexes: [main, summary]", "storage: {blockEvents: 32}").start(directory);
    try {
      for (int batch = 0; batch < 8; batch++) { // segments, so slices end while the scan runs
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
          lines
              .append("status=")
              .append(i % 2 == 0 ? 200 : 500)
              .append(" n=")
              .append(i)
              .append('\n');
        }
        HttpResponse<String> loaded = TestServers.postRaw(server, "tok", "app", lines.toString());
        assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
      }
      return server;
    } catch (Exception | AssertionError e) {
      server.close();
      throw e;
    }
  }

  @Test
  void readingARunningJobsResultsDoesNotWriteAgain() throws Exception {
    String query =
        "index=main | where len(sha256(mvjoin(mvrange(0, 20000), \",\"))) > 0 | stats count by status"
            + " | map search=\"| makeresults | eval s=$status$ | collect index=summary"
            + " marker=run=preview\"";
    HttpResponse<String> created =
        http.send("POST", "/api/v1/jobs", ADMIN, "{\"query\": " + quote(query) + "}");
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    String id = TestHttp.json(created.body()).path("id").asText();
    int previews = 0;
    for (int i = 0; i < 600; i++) {
      JsonNode results =
          TestHttp.json(http.send("GET", "/api/v1/jobs/" + id + "/results", ADMIN, null).body());
      if (results.path("preview").asBoolean()) {
        previews++;
      }
      String state =
          TestHttp.json(http.send("GET", "/api/v1/jobs/" + id, ADMIN, null).body())
              .path("state")
              .asText();
      if (!state.equals("RUNNING") && !state.equals("QUEUED")) {
        break;
      }
      Thread.sleep(100);
    }
    long written =
        http.export(ADMIN, "index=summary run=preview | stats count").get(0).path("count").asLong();
    assertThat(written)
        .as("2 groups, one map search each; previews read: " + previews)
        .isEqualTo(2);
  }

  private static String quote(String text) throws Exception {
    return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(text);
  }
}
