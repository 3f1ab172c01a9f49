package io.quarry.server.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.CompactionHolds;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestHttp;
import io.quarry.server.TestServers;
import java.io.Closeable;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index whose compaction lags behind ingest refuses events over real HTTP: with {@code
 * storage.maxWaitingBuckets} full buckets waiting for their roll (the node's compactions held back
 * through the codecs test-jar's {@link io.quarry.codecs.store.CompactionHolds}) and its hot bucket
 * at twice {@code storage.maxBucketEvents}, HEC answers 503 code 9 with {@code Retry-After} and a
 * body that names the index; once compaction catches up the same request is taken, and every event
 * is stored exactly once.
 */
class IndexBusyHttpTest {
  private static final String PASSWORD = "busy-admin-password";
  private static final int BATCH = 250;

  @TempDir Path data;

  @Test
  void anIndexPastItsWaitingBucketsAnswers503UntilCompactionCaughtUp() throws Exception {
    try (QuarryServer server =
        TestServers.start(
            data,
            PASSWORD,
            settings ->
                settings
                    .put("storage.maxBucketEvents", 1_000)
                    .put("storage.maxWaitingBuckets", 1)
                    .put("storage.commitIntervalSeconds", 1)
                    .put("storage.compaction", Map.of("mode", "deferred")))) {
      Closeable hold = CompactionHolds.hold(server.ingest().store());
      int stored = 0;
      HttpResponse<String> refused = null;
      String refusedBody = null;
      try {
        // a bucket turns full at the first commit past 1,000 events (or past 2,000 when commits
        // lag, its overrun) and waits for its roll; with that one waiting the next hot bucket is
        // refused at 2,000: far fewer than 200 batches of 250
        for (int batch = 0; batch < 200 && refused == null; batch++) {
          String body = lines(stored, BATCH);
          HttpResponse<String> response =
              TestServers.postRaw(server, TestServers.TOKEN, "app", body);
          if (response.statusCode() == 200) {
            stored += BATCH;
            Thread.sleep(50); // lets the index's committer (every second) see its buckets full
          } else {
            refused = response;
            refusedBody = body;
          }
        }
        assertThat(refused).as("refused within 200 batches; %d stored", stored).isNotNull();
        assertThat(refused.statusCode()).as(refused.body()).isEqualTo(503);
        assertThat(refused.headers().firstValue("Retry-After")).isPresent();
        var answer = TestHttp.json(refused.body());
        assertThat(answer.get("code").asInt()).isEqualTo(9);
        assertThat(answer.toString())
            .contains("index main")
            .contains("compaction lags behind ingest");
        assertThat(stored)
            .as("a full bucket (1,000 or more) waits and the hot one holds twice its limit")
            .isGreaterThanOrEqualTo(3_000);
      } finally {
        hold.close();
      }
      HttpResponse<String> taken = null;
      long deadline = System.nanoTime() + 120_000_000_000L;
      while (System.nanoTime() < deadline) {
        taken = TestServers.postRaw(server, TestServers.TOKEN, "app", refusedBody);
        if (taken.statusCode() == 200) {
          break;
        }
        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(503);
        Thread.sleep(200);
      }
      assertThat(taken.statusCode()).as("taken once compaction caught up").isEqualTo(200);
      stored += BATCH;

      String counted =
          TestServers.exportOk(server, PASSWORD, "search index=main | stats count dc(n) AS kinds");
      com.fasterxml.jackson.databind.JsonNode result =
          TestHttp.json(
                  counted.lines().filter(line -> line.contains("kinds")).findFirst().orElseThrow())
              .get("result");
      assertThat(result.get("count").asLong()).as(counted).isEqualTo(stored);
      assertThat(result.get("kinds").asLong()).as("each event once: %s", counted).isEqualTo(stored);
    }
  }

  /** {@code count} lines {@code n=<number>} from {@code from}, one event each. */
  private static String lines(int from, int count) {
    StringBuilder text = new StringBuilder();
    for (int n = from; n < from + count; n++) {
      text.append("2026-01-01T00:00:00Z n=").append(n).append('\n');
    }
    return text.toString();
  }
}
