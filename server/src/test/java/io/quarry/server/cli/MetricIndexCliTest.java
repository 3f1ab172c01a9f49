package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code quarry indexes --verbose} and {@code quarry fsck} on a metric index, on a real server that
 * rolled points sent over HEC into warm buckets: the listing shows points, series, chunks, bytes
 * per point and the kinds of files; fsck reads every bucket and log file, finds a flipped byte in a
 * chunk file and moves that bucket aside with {@code --repair}.
 */
class MetricIndexCliTest {
  @TempDir Path directory;

  @Test
  void indexesAndFsckCoverMetricIndexes() throws Exception {
    Path data = directory.resolve("data");
    QuarryServer server = start(data);
    try {
      StringBuilder body = new StringBuilder();
      for (int i = 0; i < 150; i++) {
        for (String host : List.of("h1", "h2")) {
          body.append("{\"time\":")
              .append(1_764_000_000 + 10 * i)
              .append(",\"event\":\"metric\",\"index\":\"m\",\"host\":\"")
              .append(host)
              .append("\",\"fields\":{\"metric_name:cpu.user\":")
              .append(i % 7)
              .append(",\"metric_name:mem.used\":1024}}\n");
        }
      }
      HttpResponse<String> sent =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
                      .header("Authorization", "Splunk " + TestServers.TOKEN)
                      .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);

      String listed =
          CliRun.printed(0, "indexes", "--url=" + server.url(), "--password=pw", "--verbose");
      assertThat(listed)
          .contains("metric index", "bytes/point")
          .containsPattern("\\bm\\s+1\\s+600\\s+0\\s+4\\s+4\\s") // a bucket, 600 points, 4 series
          .containsPattern("m\\s+chunk files\\s+[0-9.]+ MB\\s+[0-9.]+%\\s+[0-9.]+")
          .containsPattern("m\\s+series files\\s+");
    } finally {
      server.close();
    }

    String checked = CliRun.printed(0, "fsck", "--data-dir=" + data);
    assertThat(checked)
        .containsPattern("m\\s+metric bucket \\d+\\s+ok: 4 series, 4 chunks, 600 points")
        .containsPattern("m\\s+metric log mwal-\\d+\\.log\\s+ok: 0 records")
        .contains("1 metric buckets checked, 0 damaged");

    Path bucket;
    try (var buckets = Files.list(data.resolve("indexes/m/metric-buckets"))) {
      bucket = buckets.findFirst().orElseThrow();
    }
    Path chunks = bucket.resolve("chunks.qmc");
    byte[] bytes = Files.readAllBytes(chunks);
    bytes[bytes.length / 2] ^= 0x10;
    Files.write(chunks, bytes);
    assertThat(CliRun.printed(1, "fsck", "--data-dir=" + data))
        .containsPattern("m\\s+metric bucket \\d+\\s+DAMAGED: ")
        .contains("1 metric buckets checked, 1 damaged");
    assertThat(CliRun.printed(0, "fsck", "--repair", "--data-dir=" + data))
        .contains("DAMAGED, quarantined");
    assertThat(bucket).doesNotExist();
    try (var quarantined = Files.list(data.resolve("indexes/m/quarantine"))) {
      assertThat(quarantined.map(p -> p.getFileName().toString()))
          .singleElement()
          .asString()
          .startsWith("metric-bucket-" + bucket.getFileName());
    }
  }

  private static QuarryServer start(Path data) throws Exception {
    return TestServers.start(
        data,
        "pw",
        settings -> TestServers.withMetricIndex(settings.put("server.workerThreads", 2), 500L));
  }
}
