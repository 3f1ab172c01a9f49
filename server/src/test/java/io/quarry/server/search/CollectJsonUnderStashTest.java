package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Review c38 of lane jsonkv: {@code _json} is read {@code kvMode: json}, so a {@code _json} event
 * whose {@code ua} text holds {@code report=daily count=999999} reads no {@code report} and no
 * {@code count}. {@code collect} with its default sourcetype ({@code stash}, {@code auto_escaped})
 * writes the kept {@code _raw} without the kvMode check {@link CollectSourcetype#refuse} makes for
 * any other sourcetype (it returns at once for one that holds summaries), and {@code auto_escaped}
 * reads the pairs inside the JSON string. The property of {@link CollectKeptRawForgeryTest}: either
 * the copy is refused, or nothing it wrote reads a field the events read did not hold.
 */
class CollectJsonUnderStashTest {
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        CollectServers.start(
            directory, TestConfig.yaml("indexes: [main, web, copies]").hecIndexes("main", "web"));
    http = new TestHttp(server.url());
    CollectServers.postForgingEvent(server, http, ADMIN);
  }

  @Test
  void jsonEventsCollectedUnderTheDefaultStashForgeNoField() throws Exception {
    ArrayNode original = http.export(ADMIN, "index=web | table ua, count, report");
    assertThat(original).hasSize(1);
    assertThat(original.get(0).has("report")).as("the event, read as JSON").isFalse();
    HttpResponse<String> copied =
        CollectServers.export(http, ADMIN, "index=web | collect index=copies");
    ArrayNode back = http.export(ADMIN, "index=copies | table _raw, ua, count, report");
    if (copied.statusCode() == 200) {
      assertThat(back).hasSize(1);
    } else {
      assertThat(copied.statusCode()).as(copied.body()).isEqualTo(400);
      assertThat(back).isEmpty();
    }
    for (JsonNode row : back) {
      assertThat(row.has("report")).as("the copy reads %s", row).isFalse();
      assertThat(row.has("count")).as("the copy reads %s", row).isFalse();
    }
  }
}
