package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.IndexSummary;
import io.quarry.client.JournalSummary;
import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.config.QuarryConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness learns a store's shape from the server ({@code GET /api/v1/indexes} on a real server
 * on 127.0.0.1): the layout each bucket's directory records, as many segments and documents as its
 * last commit, as many fast segments as that commit's segments written fast — counted here from the
 * directory itself — and the journal's codec (the default's young segments: lz4, fast); and the
 * searches' own CPU from the server's {@code /metrics}.
 */
class StoreShapeTest {
  private static final String PASSWORD = "shape-password";
  private static final String TOKEN = "shape-token";

  @TempDir Path data;

  @Test
  void theShapeOfARealStoreAsTheServerSaysIt() throws Exception {
    QuarryConfig config =
        QuarryConfig.embedded(data, PASSWORD, TOKEN)
            .put("storage.compaction.idleMillis", 3_600_000L) // the young segments stay fast
            .put("storage.commitIntervalSeconds", 1)
            .build();
    try (QuarryServer server = QuarryServer.start(config, Clock.systemUTC());
        QuarryClient hec = QuarryClient.builder(URI.create(server.url())).hecToken(TOKEN).build();
        QuarryClient admin =
            QuarryClient.builder(URI.create(server.url())).adminPassword(PASSWORD).build()) {
      for (int batch = 0; batch < 2; batch++) {
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
          lines.append("event ").append(i).append(" of batch ").append(batch).append('\n');
        }
        hec.sendRaw(lines.toString().getBytes(StandardCharsets.UTF_8), "app", "main", "h", "s");
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      StoreShape shape = StoreShape.of(main(admin));
      while (!matchesDirectory(shape) && System.nanoTime() < deadline) {
        Thread.sleep(100); // until the server's searcher and the last commit agree
        shape = StoreShape.of(main(admin));
      }
      assertThat(matchesDirectory(shape)).as(shape.describe()).isTrue();
      StoreShape.Bucket bucket = shape.buckets().getFirst();
      assertThat(bucket.layout()).matches("blocks [23]");
      assertThat(bucket.documents()).isBetween(6L, 6000L); // blocks of at most 1024 events
      assertThat(shape.layouts()).isEqualTo(bucket.layout());
      assertThat(shape.journal())
          .isNotEmpty()
          .allSatisfy(
              kind -> {
                assertThat(kind.codec()).isEqualTo("lz4");
                assertThat(kind.compact()).isFalse();
              });
      assertThat(shape.journal().stream().mapToInt(JournalSummary::segments).sum())
          .isEqualTo(bucket.segments());
      assertThat(shape.describe())
          .startsWith("bucket " + bucket.id() + " (" + bucket.layout() + "): ")
          .contains("journal: lz4 0 fast ");
      assertThat(shape.report())
          .singleElement()
          .satisfies(entry -> assertThat(entry.get("segments")).isEqualTo(bucket.segments()))
          .satisfies(entry -> assertThat((List<?>) entry.get("journal")).isNotEmpty());
      // the index's journal is the server's sum over its buckets, written to the report as the
      // client's records: every field the API gives, named as the API names it
      assertThat(shape.journal()).isEqualTo(main(admin).journal());
      List<?> report =
          new com.fasterxml.jackson.databind.ObjectMapper()
              .convertValue(shape.journal(), List.class);
      assertThat(report.getFirst())
          .asInstanceOf(
              org.assertj.core.api.InstanceOfAssertFactories.map(String.class, Object.class))
          .containsEntry("codec", "lz4")
          .containsKeys("level", "compact", "formatVersion", "segments", "bytes", "rawBytes");

      long before = MetricsPage.searchCpuNanos(metrics(server));
      assertThat(admin.search("index=main | stats count", "0", null).rows().getFirst())
          .containsEntry("count", "6000");
      assertThat(MetricsPage.searchCpuNanos(metrics(server))).isGreaterThan(before);
    }
  }

  /**
   * Whether every bucket the server lists has its directory's recorded layout, as many segments and
   * documents as its last commit, and as many fast segments as that commit's segments whose journal
   * attribute says fast.
   */
  private boolean matchesDirectory(StoreShape shape) throws Exception {
    if (shape.buckets().isEmpty()) {
      return false;
    }
    for (StoreShape.Bucket bucket : shape.buckets()) {
      Path directory =
          data.resolve("indexes").resolve("main").resolve("buckets").resolve(bucket.id());
      Path marker = directory.resolve("bucket.format");
      String layout =
          Files.exists(marker)
              ? Files.readString(marker, StandardCharsets.UTF_8).strip()
              : "events";
      try (Directory lucene = FSDirectory.open(directory)) {
        SegmentInfos commit = SegmentInfos.readLatestCommit(lucene);
        long documents = 0;
        int fast = 0;
        for (SegmentCommitInfo segment : commit) {
          documents += segment.info.maxDoc();
          fast +=
              "false"
                      .equals(
                          segment.info.getAttribute(
                              io.quarry.codecs.journal.JournalStoredFieldsFormat.COMPACT_ATTRIBUTE))
                  ? 1
                  : 0;
        }
        if (!layout.equals(bucket.layout())
            || commit.size() != bucket.segments()
            || documents != bucket.documents()
            || fast != bucket.fastSegments()) {
          return false;
        }
      } catch (org.apache.lucene.index.IndexNotFoundException notCommittedYet) {
        return false;
      }
    }
    return true;
  }

  private static IndexSummary main(QuarryClient client) {
    return client.indexes().stream()
        .filter(index -> index.name().equals("main"))
        .findFirst()
        .orElseThrow();
  }

  private static String metrics(QuarryServer server) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create(server.url() + "/metrics")).build(),
              HttpResponse.BodyHandlers.ofString());
      return response.body();
    }
  }
}
