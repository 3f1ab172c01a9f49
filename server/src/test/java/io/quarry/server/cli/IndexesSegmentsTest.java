package io.quarry.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.client.BucketSummary;
import io.quarry.client.IndexSummary;
import io.quarry.client.JournalSummary;
import io.quarry.client.QuarryClient;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /api/v1/indexes} (through {@link QuarryClient#indexes}) and {@code quarry indexes
 * --verbose} say what the segments hold, as the bucket's directory does: the layout its {@code
 * bucket.format} records, as many segments as its last commit, and the journal's codec each segment
 * was written with — the young segments of the default {@code lz4-zstd} setting hold lz4 blocks
 * (fast, level 0), and after the compaction (restarted with a short idle time) zstd 12 blocks,
 * compact, and no lz4 any more.
 */
class IndexesSegmentsTest {
  @TempDir Path data;

  @Test
  void youngSegmentsHoldLz4AndCompactedOnesZstd() throws Exception {
    try (QuarryServer server =
        TestServers.start(
            data,
            "pw",
            settings ->
                settings
                    .put("storage.compaction.idleMillis", 3_600_000L) // no compaction yet
                    .put("storage.commitIntervalSeconds", 1))) {
      QuarryClient client = client(server);
      TestServers.loadRaw(server, lines(20_000));
      IndexSummary young = await(client, index -> index.segments() > 0 && matchesDirectory(index));
      assertThat(young.layouts()).containsExactly(recordedLayout(young));
      assertThat(young.journal()).as("%s", young).isNotEmpty();
      assertThat(young.journal())
          .allSatisfy(
              kind -> {
                assertThat(kind.codec()).isEqualTo("lz4");
                assertThat(kind.level()).isZero();
                assertThat(kind.compact()).isFalse();
                assertThat(kind.formatVersion()).isEqualTo(2);
              });
      assertThat(young.journal().stream().mapToLong(JournalSummary::bytes).sum())
          .isEqualTo(young.journalBytes())
          .isPositive();
      assertThat(young.journal().stream().mapToLong(JournalSummary::rawBytes).sum())
          .isEqualTo(young.journalRawBytes());
      assertThat(young.journal().stream().mapToInt(JournalSummary::segments).sum())
          .isEqualTo(young.segments());
      assertThat(journalRowsOfMain(server))
          .contains("lz4 0 fast v2")
          .doesNotContain("zstd 12 compact");
    }

    try (QuarryServer server =
        TestServers.start(
            data,
            "pw",
            settings ->
                settings
                    .put("storage.compaction.idleMillis", 100L)
                    .put("storage.compaction.idleMinBytes", 1L)
                    .put("storage.commitIntervalSeconds", 1))) {
      QuarryClient client = client(server);
      IndexSummary compacted =
          await(
              client,
              index ->
                  index.compactions() > 0
                      && index.compacted()
                      && index.journal().stream().allMatch(JournalSummary::compact)
                      && matchesDirectory(index));
      assertThat(compacted.journal())
          .singleElement()
          .satisfies(
              kind -> {
                assertThat(kind.codec()).isEqualTo("zstd");
                assertThat(kind.level()).isEqualTo(12);
                assertThat(kind.compact()).isTrue();
                assertThat(kind.segments()).isEqualTo(compacted.segments());
                assertThat(kind.bytes()).isEqualTo(compacted.journalBytes());
              });
      assertThat(compacted.bucketList()).allSatisfy(b -> assertThat(b.fastSegments()).isZero());
      assertThat(journalRowsOfMain(server))
          .contains("zstd 12 compact v2")
          .doesNotContain("lz4 0 fast");
    }
  }

  /**
   * Whether every bucket of {@code index} lists as many segments and documents as its directory's
   * last commit, and the layout its {@code bucket.format} records.
   */
  private boolean matchesDirectory(IndexSummary index) {
    try {
      for (BucketSummary bucket : index.bucketList()) {
        Path directory = bucketDirectory(bucket);
        try (Directory lucene = FSDirectory.open(directory)) {
          SegmentInfos commit = SegmentInfos.readLatestCommit(lucene);
          long documents = 0;
          for (var segment : commit) {
            documents += segment.info.maxDoc();
          }
          if (commit.size() != bucket.segments()
              || documents != bucket.documents()
              || !bucket.layout().equals(layoutOf(directory))) {
            return false;
          }
        }
      }
      return !index.bucketList().isEmpty();
    } catch (java.io.IOException notCommittedYet) {
      return false;
    }
  }

  private String recordedLayout(IndexSummary index) throws java.io.IOException {
    return layoutOf(bucketDirectory(index.bucketList().getFirst()));
  }

  private Path bucketDirectory(BucketSummary bucket) {
    return data.resolve("indexes").resolve("main").resolve("buckets").resolve("" + bucket.id());
  }

  /** The layout a bucket's directory records: {@code events} when it records none. */
  private static String layoutOf(Path directory) throws java.io.IOException {
    Path marker = directory.resolve("bucket.format");
    return Files.exists(marker)
        ? Files.readString(marker, StandardCharsets.UTF_8).strip()
        : "events";
  }

  private static IndexSummary await(QuarryClient client, Predicate<IndexSummary> done)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    IndexSummary main = main(client);
    while (!done.test(main) && System.nanoTime() < deadline) {
      Thread.sleep(100);
      main = main(client);
    }
    assertThat(done.test(main)).as("%s", main).isTrue();
    return main;
  }

  /** The rows of index main in the table of journals {@code quarry indexes --verbose} prints. */
  private static String journalRowsOfMain(QuarryServer server) {
    String printed =
        CliRun.printed(0, "indexes", "--url=" + server.url(), "--password=pw", "--verbose");
    String table = printed.substring(printed.indexOf("per raw byte\n", printed.indexOf("layouts")));
    return String.join("\n", table.lines().filter(line -> line.startsWith("main ")).toList());
  }

  private static QuarryClient client(QuarryServer server) {
    return QuarryClient.builder(URI.create(server.url())).adminPassword("pw").build();
  }

  private static IndexSummary main(QuarryClient client) throws Exception {
    return client.indexes().stream()
        .filter(index -> index.name().equals("main"))
        .findFirst()
        .orElseThrow();
  }

  /** Lines of random ids, sent raw. */
  private static String lines(int count) {
    java.util.Random random = new java.util.Random(41);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < count; i++) {
      lines.append("line ").append(i).append(" status=200 id=");
      lines.append(Long.toHexString(random.nextLong())).append('\n');
    }
    return lines.toString();
  }
}
