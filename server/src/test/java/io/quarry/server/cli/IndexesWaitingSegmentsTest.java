package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.IndexSummary;
import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An index whose hot bucket takes events (an hour's idle time: never idle here) keeps its fast
 * segments' natural merges waiting for the compaction, and says so, stably between flushes: {@code
 * GET /api/v1/indexes}' {@code compaction.waitingSegments}, {@link
 * IndexSummary#compactionWaitingSegments} and {@code quarry indexes --verbose}'s "fast segments
 * waiting" give the same number of fast segments, which holds while no event comes; {@code
 * /metrics}' {@code quarry_compaction_fast_segments_waiting} sums it over the indexes.
 */
class IndexesWaitingSegmentsTest {
  @TempDir Path data;

  @Test
  void fastSegmentsWaitingForTheCompactionAreShownWhileTheIndexTakesEvents() throws Exception {
    try (QuarryServer server =
        TestServers.start(
            data,
            "pw",
            settings ->
                settings
                    .put("storage.compaction.idleMillis", 3_600_000L)
                    .put("storage.compaction.idleMinBytes", 1L)
                    .put("storage.commitIntervalSeconds", 1))) {
      QuarryClient client =
          QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
      TestServers.loadRaw(server, "line 1 status=200\nline 2 status=404\n");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      IndexSummary main = main(client);
      while (main.compactionWaitingSegments() == 0 && System.nanoTime() < deadline) {
        Thread.sleep(100); // the next commit (every second) flushes a segment
        main = main(client);
      }
      int waiting = main.compactionWaitingSegments();
      assertThat(waiting).as("%s", main).isPositive();

      HttpResponse<String> metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).build(),
                  HttpResponse.BodyHandlers.ofString());
      java.util.regex.Matcher gauge =
          java.util.regex.Pattern.compile(
                  "(?m)^quarry_compaction_fast_segments_waiting\\S* (\\S+)$")
              .matcher(metrics.body());
      assertThat(gauge.find()).as(metrics.body()).isTrue();
      assertThat(Double.parseDouble(gauge.group(1)))
          .as("summed over the indexes (_internal and _audit take events too)")
          .isGreaterThanOrEqualTo(waiting);

      String listed =
          CliRun.printed(0, "indexes", "--url=" + server.url(), "--password=pw", "--verbose");
      assertThat(cell(listed, "fast segments waiting", "main"))
          .isEqualTo(Integer.toString(waiting));
      assertThat(main(client).compactionWaitingSegments())
          .as("asked again, no event since: the same (not only the last merge decision's)")
          .isEqualTo(waiting);
    }
  }

  /** The cell of the table printed with column {@code column} in the row of {@code index}. */
  private static String cell(String printed, String column, String index) {
    String[] lines = printed.split("\n");
    for (int i = 0; i < lines.length; i++) {
      int at = lines[i].indexOf(column);
      if (at < 0) {
        continue;
      }
      for (int row = i + 1; row < lines.length && !lines[row].isBlank(); row++) {
        if (lines[row].startsWith(index + " ")) {
          return lines[row].substring(at).trim().split("\\s+")[0];
        }
      }
    }
    throw new AssertionError("no column " + column + " for " + index + " in:\n" + printed);
  }

  private static IndexSummary main(QuarryClient client) throws Exception {
    return client.indexes().stream()
        .filter(index -> index.name().equals("main"))
        .findFirst()
        .orElseThrow();
  }
}
