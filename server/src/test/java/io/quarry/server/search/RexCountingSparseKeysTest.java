package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code rex} field whose values are each met once (session ids): the scan's table ({@link
 * BytesCounts}) fills — here its 4 MiB arena, 30,000 distinct values of ~300 bytes — with keys
 * counted once each, and {@link RexCounting} sends the rest of that slice to the page path, which
 * counts such keys for less (session 40: the fused count cost ~20% more CPU at 158k keys in 315k
 * events). The answer is the same; the job's {@code eventsCountedByRex} is then below the events
 * the rex matched (all of them without the fallback). Both layouts.
 */
class RexCountingSparseKeysTest {
  private static final String PASSWORD = "rex-sparse-password";
  private static final String REX = " | rex \"from (?<k>\\S+)\" | stats count by k";
  private static final int KEYS = 30_000;
  private static final String[] INDEXES = {"ev", "bl"};

  @TempDir static Path root;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.startLayouts(root.resolve("data"), PASSWORD, TestServers.TOKEN, Map.of());
    StringBuilder lines = new StringBuilder();
    String pad = "p".repeat(300);
    for (int i = 0; i < KEYS; i++) {
      lines.append("2026-01-07T10:00:00Z from k").append(i).append(pad).append(" q=1\n");
    }
    for (String index : INDEXES) {
      HttpResponse<String> loaded =
          TestServers.postRaw(server, TestServers.TOKEN, "app", index, lines.toString());
      assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    }
  }

  @Test
  void aFullTableOfKeysMetOnceSendsTheRestToPagesWithTheSameAnswer() throws Exception {
    for (String index : INDEXES) {
      String search = "index=" + index + REX + " | stats count AS keys, sum(count) AS events";
      HttpResponse<String> answered = TestServers.export(server, PASSWORD, search);
      assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
      assertThat(answered.body())
          .as(index)
          .contains("\"keys\":\"" + KEYS + "\"")
          .contains("\"events\":\"" + KEYS + "\"");
      JsonNode inspect = EventRunSearchTest.inspect(server, PASSWORD, "index=" + index + REX);
      long counted = inspect.at("/costs/scan/eventsCountedByRex").asLong();
      assertThat(counted).as(index + ": " + inspect.at("/costs/scan")).isPositive();
      assertThat(counted).as(index + ": " + inspect.at("/costs/scan")).isLessThan(KEYS);
    }
  }
}
