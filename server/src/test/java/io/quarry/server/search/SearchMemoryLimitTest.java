package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A search whose operators would hold more than search.maxMemoryBytes fails with 422 naming the
 * command, in time-ordered and in batch mode; the server answers the next search.
 */
class SearchMemoryLimitTest {
  private static final String PASSWORD = "memory-test-password";

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = MemoryLimitServers.start(root.resolve("data"), PASSWORD, 1L << 20, 20_000);
    // access logs: 20,000 distinct (clientip, uri_path) combinations of index-time keywords
    StringBuilder access = new StringBuilder();
    for (int i = 0; i < 20_000; i++) {
      access.append(
          String.format(
              "10.1.%d.%d - - [07/Jan/2026:10:00:00 +0000] \"GET /path%d HTTP/1.1\" 200 512 \"-\""
                  + " \"curl\"%n",
              i % 400 / 100, i % 100, i / 400));
    }
    HttpResponse<String> loaded =
        TestServers.postRaw(server, "tok", "access_combined", access.toString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  private static HttpResponse<String> search(String query) throws Exception {
    return TestServers.export(server, PASSWORD, query);
  }

  @Test
  void overTheLimitTheSearchFailsNamingTheCommand() throws Exception {
    HttpResponse<String> distinct = search("* | stats dc(x) by y"); // batch mode: partials
    assertThat(distinct.statusCode()).as(distinct.body()).isEqualTo(422);
    assertThat(distinct.body())
        .contains("MEMORY_LIMIT")
        .contains("stats needs")
        .contains("search.maxMemoryBytes");
    HttpResponse<String> sorted = search("* | sort 0 x | table x"); // time-ordered: every row kept
    assertThat(sorted.statusCode()).as(sorted.body()).isEqualTo(422);
    assertThat(sorted.body()).contains("sort needs");
    // counted by combination of keyword ordinals (JointCounts): held under the same limit
    HttpResponse<String> joint =
        search("sourcetype=access_combined | stats count by clientip, uri_path");
    assertThat(joint.statusCode()).as(joint.body()).isEqualTo(422);
    assertThat(joint.body()).contains("MEMORY_LIMIT").contains("stats needs");
    HttpResponse<String> few =
        search("sourcetype=access_combined uri_path=/path7 | stats count by clientip, uri_path");
    assertThat(few.statusCode()).as(few.body()).isEqualTo(200);
    assertThat(few.body().split("\"count\":\"1\"", -1)).hasSize(401); // 400 combinations, once
    HttpResponse<String> small = search("* | stats count by y");
    assertThat(small.statusCode()).isEqualTo(200);
    assertThat(small.body()).contains("\"count\":\"6667\"");
  }
}
