package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.HecToken;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quarry ingest --metrics}: CSV and JSON lines into a metric index of a real server. */
class MetricFileIngestTest {
  @TempDir Path directory;
  private QuarryServer server;
  private QuarryClient search;

  @BeforeEach
  void start() throws Exception {
    server =
        QuarryServer.start(
            TestServers.settings(directory.resolve("data"), "pw")
                .put("indexes", List.of("main", "m"))
                .put("hec.tokens", List.of(new HecToken("tok", "cli", "main", List.of("*"), null)))
                .put("storage.indexes.m.datatype", "metric")
                .build(),
            Clock.systemUTC());
    search = QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
  }

  private int ingest(Path file) {
    return QuarryCli.commandLine()
        .execute(
            "ingest",
            "--url=" + server.url(),
            "--token=tok",
            "--index=m",
            "--metrics",
            file.toString());
  }

  @Test
  void csvAndJsonLines() throws Exception {
    Path csv = directory.resolve("points.csv");
    Files.writeString(
        csv,
        "metric_timestamp,metric_name,_value,host,region\n"
            + "1767780000,cpu.user,10,h1,us\n"
            + "1767780010,cpu.user,20,h1,us\n"
            + "1767780000,cpu.user,7.5,h2,\"eu, west\"\n");
    assertThat(ingest(csv)).isZero();
    Path json = directory.resolve("points.jsonl");
    Files.writeString(
        json,
        "{\"_time\":1767780020,\"host\":\"h1\",\"region\":\"us\",\"metric_name:cpu.user\":30,"
            + "\"metric_name:cpu.sys\":1}\n");
    assertThat(ingest(json)).isZero();
    List<Map<String, String>> rows =
        search
            .search("| mstats sum(cpu.user) AS s count(cpu.sys) AS n where index=m by host, region")
            .rows();
    assertThat(rows)
        .extracting(
            r -> r.get("host") + "/" + r.get("region") + "=" + r.get("s") + "," + r.get("n"))
        // h2 sent no cpu.sys: its count is 0, as stats counts a field no event of the group has
        // (it had been null or 0 depending on which series the scan met first)
        .containsExactly("h1/us=60,1", "h2/eu, west=7.5,0");

    Path bad = directory.resolve("bad.csv");
    Files.writeString(bad, "metric_name,_value,_time\ncpu.user,1,yesterday\n");
    assertThat(ingest(bad)).isEqualTo(1);
    Path noValue = directory.resolve("bad2.csv");
    Files.writeString(noValue, "metric_name,_time\ncpu.user,1\n");
    assertThat(ingest(noValue)).isEqualTo(1);
  }
}
