package io.quarry.codecs.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.ConfigBuilder;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A HEC body for two indexes whose second index's write fails after the first's batch was stored
 * (its disk broke: the failure only the write finds) answers 503 naming the stored index, over a
 * real server: the shipper resends only the other index's events, and after a restart every event
 * acknowledged — the body before, the stored index's part of the failed body, the part resent — is
 * found exactly once. The failure is a real one: the second index's buckets live on a directory
 * that fails once the test breaks it ({@link FaultyDirectories#brokenWhile}), through the server's
 * directory seam ({@code NodeStores}).
 */
class PartlyStoredHecBodyTest {
  private static final String PASSWORD = "pw";
  private static final String EVENT_PATH = "/services/collector/event";
  private static final long TIME = 1_767_744_000L; // 2026-01-07T00:00:00Z

  @TempDir Path data;

  private static final UnaryOperator<ConfigBuilder> TWO_INDEXES =
      settings ->
          TestServers.indexes(settings, TestServers.TOKEN, List.of("main", "web"))
              .put("storage.commitIntervalSeconds", 1);

  @Test
  void aBodyPartlyStoredAnswers503AndWhatWasAcknowledgedIsFoundOnce() throws Exception {
    BrokenDisks web = new BrokenDisks("web");
    try (QuarryServer server =
        TestServers.startWithDirectories(data, PASSWORD, TWO_INDEXES, web.directories())) {
      HttpResponse<String> first =
          TestServers.postHec(
              server, EVENT_PATH, envelopes("main", "before", 3) + envelopes("web", "before", 3));
      assertThat(first.statusCode()).as(first.body()).isEqualTo(200);

      web.breakAndAwaitFailure(server, 60);
      HttpResponse<String> failed =
          TestServers.postHec(
              server, EVENT_PATH, envelopes("main", "failed", 4) + envelopes("web", "failed", 5));
      assertThat(failed.statusCode()).as(failed.body()).isEqualTo(503);
      assertThat(failed.body())
          .contains("\"code\":9")
          .contains("storing the events for index 'web' failed")
          .contains("after 4 events for [main] were stored")
          .contains("resend only the events for other indexes");

      web.mend();
      HttpResponse<String> resent =
          TestServers.postHec(server, EVENT_PATH, envelopes("web", "failed", 5));
      assertThat(resent.statusCode()).as(resent.body()).isEqualTo(200);
    }

    try (QuarryServer restarted = TestServers.start(data, PASSWORD, TWO_INDEXES)) {
      assertThat(StoredTexts.of(restarted, PASSWORD, "main"))
          .as("main: the body before and its part of the failed body, each once")
          .isEqualTo(once(texts("main", "before", 3), texts("main", "failed", 4)));
      assertThat(StoredTexts.of(restarted, PASSWORD, "web"))
          .as("web: the body before (logged before its disk broke) and the part resent, each once")
          .isEqualTo(once(texts("web", "before", 3), texts("web", "failed", 5)));
    }
  }

  /** {@code count} HEC envelopes for {@code index}, their texts as {@link #texts} names them. */
  private static String envelopes(String index, String body, int count) {
    StringBuilder envelopes = new StringBuilder();
    List<String> texts = texts(index, body, count);
    for (int i = 0; i < count; i++) {
      envelopes
          .append("{\"time\":")
          .append(TIME + i)
          .append(",\"index\":\"")
          .append(index)
          .append("\",\"sourcetype\":\"app\",\"event\":\"")
          .append(texts.get(i))
          .append("\"}\n");
    }
    return envelopes.toString();
  }

  private static List<String> texts(String index, String body, int count) {
    List<String> texts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      texts.add(body + " " + index + " event " + i);
    }
    return texts;
  }

  @SafeVarargs
  private static Map<String, Long> once(List<String>... texts) {
    Map<String, Long> counts = new TreeMap<>();
    for (List<String> some : texts) {
      some.forEach(text -> counts.put(text, 1L));
    }
    return counts;
  }
}
