package io.quarry.server;

import io.quarry.codecs.store.CompactionHolds;
import io.quarry.server.config.ConfigBuilder;
import io.quarry.server.ingest.IngestStores;
import java.io.Closeable;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * An index made busy over real HTTP: the node's compactions held back (through the codecs
 * test-jar's {@link CompactionHolds}) while {@code /services/collector/raw} batches fill it, until
 * its full bucket waits for its roll and its hot bucket holds twice {@code storage.maxBucketEvents}
 * — then it refuses events (503 code 9, "compaction lags behind ingest") until the hold is closed
 * and compaction catches up.
 */
public final class BusyIndexes {
  /** Events a batch of {@link #fill} sends. */
  public static final int BATCH = 250;

  private BusyIndexes() {}

  /**
   * {@code settings} with what lets {@link #fill} make an index busy quickly: buckets of 1,000
   * events, one full bucket waiting at most, a commit every second, deferred compaction.
   */
  public static ConfigBuilder settings(ConfigBuilder settings) {
    return settings
        .put("storage.maxBucketEvents", 1_000)
        .put("storage.maxWaitingBuckets", 1)
        .put("storage.commitIntervalSeconds", 1)
        .put("storage.compaction", Map.of("mode", "deferred"));
  }

  /**
   * What {@link #fill} did: the hold on the node's compactions (close it to let the index catch
   * up), the events stored, and the first refused batch with its body (null when 200 batches were
   * all taken).
   */
  public record Busy(Closeable hold, int stored, HttpResponse<String> refused, String refusedBody)
      implements Closeable {
    @Override
    public void close() throws IOException {
      hold.close();
    }
  }

  /**
   * Holds the node's compactions and sends batches of {@link #BATCH} lines {@code n=<number>} to
   * {@code index} with HEC token {@code token} (sourcetype {@code app}) until one is refused, at
   * most 200. The hold stays on: close the result.
   */
  public static Busy fill(QuarryServer server, String token, String index) throws Exception {
    Closeable hold = CompactionHolds.hold(IngestStores.of(server.ingest()));
    int stored = 0;
    try {
      // a bucket turns full at the first commit past 1,000 events (or past 2,000 when commits
      // lag, its overrun) and waits for its roll; with that one waiting the next hot bucket is
      // refused at 2,000: far fewer than 200 batches of 250
      for (int batch = 0; batch < 200; batch++) {
        String body = lines(stored, BATCH);
        HttpResponse<String> response = TestServers.postRaw(server, token, "app", index, body);
        if (response.statusCode() != 200) {
          return new Busy(hold, stored, response, body);
        }
        stored += BATCH;
        Thread.sleep(50); // lets the index's committer (every second) see its buckets full
      }
      return new Busy(hold, stored, null, null);
    } catch (Exception | Error e) {
      hold.close();
      throw e;
    }
  }

  /** {@code count} lines {@code n=<number>} from {@code from}, one event each. */
  public static String lines(int from, int count) {
    StringBuilder text = new StringBuilder();
    for (int n = from; n < from + count; n++) {
      text.append("2026-01-01T00:00:00Z n=").append(n).append('\n');
    }
    return text.toString();
  }
}
