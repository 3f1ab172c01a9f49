package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --reuse-index} reuses an index only when its {@code data-ingested.txt} records this run's
 * dataset and the store's settings as the server resolves them: a {@code -Dquarry.storage.*}
 * property (term filters on), the format, the block size, the journal's compression, the layout of
 * the store's buckets or JSESSIONID at index time set differently makes it ingest afresh, saying
 * what differs; properties of other prefixes do not count. A store another build made under its own
 * defaults (session 38's jar: postings, {@code blocks 2}) is not reused by a build whose defaults
 * differ (term filters, {@code blocks 3}), which the record of session 39 (defaults written as
 * {@code default}) allowed.
 */
class IngestRecordTest {
  @TempDir Path workDir;

  private static final Path DATASET = Path.of("access-1000000-seed42.log");

  private static IngestRecord record(
      String format, Integer blockEvents, boolean indexedSessions, Properties properties) {
    return IngestRecord.of(
        DATASET,
        123_456,
        new IngestSettings(
            format,
            blockEvents == null ? 1024 : blockEvents,
            "zstd",
            format.equals("blocks") ? "blocks 3" : "events"),
        indexedSessions,
        properties);
  }

  private static IngestRecord record(String journalCompression, String layout) {
    return IngestRecord.of(
        DATASET,
        123_456,
        new IngestSettings("blocks", 1024, journalCompression, layout),
        false,
        properties());
  }

  private static Properties properties(String... nameValues) {
    Properties properties = new Properties();
    properties.setProperty("java.version", "25");
    for (int i = 0; i < nameValues.length; i += 2) {
      properties.setProperty(nameValues[i], nameValues[i + 1]);
    }
    return properties;
  }

  @Test
  void theSameOptionsReuseTheIndex() throws Exception {
    Properties filters = properties("quarry.storage.termFilters", "true");
    record("blocks", null, false, filters).write(workDir);

    assertThat(record("blocks", null, false, filters).differences(workDir)).isEmpty();
    // other properties than the store's do not count
    Properties other = properties("quarry.storage.termFilters", "true", "user.name", "someone");
    assertThat(record("blocks", null, false, other).differences(workDir)).isEmpty();
  }

  @Test
  void aStoragePropertySetDifferentlyIngestsAfresh() throws Exception {
    record("blocks", null, false, properties("quarry.storage.termFilters", "true")).write(workDir);

    assertThat(record("blocks", null, false, properties()).differences(workDir))
        .containsExactly("the index has -Dquarry.storage.termFilters=true");
    assertThat(
            record("blocks", null, false, properties("quarry.storage.termFilters", "false"))
                .differences(workDir))
        .containsExactly(
            "the index has -Dquarry.storage.termFilters=true",
            "this run asks -Dquarry.storage.termFilters=false");
    assertThat(
            record(
                    "blocks",
                    null,
                    false,
                    properties(
                        "quarry.storage.termFilters",
                        "true",
                        "quarry.storage.compaction.mode",
                        "inline"))
                .differences(workDir))
        .containsExactly("this run asks -Dquarry.storage.compaction.mode=inline");
  }

  @Test
  void theFormatBlockSizeAndIndexedSessionsCount() throws Exception {
    record("blocks", null, false, properties()).write(workDir);

    assertThat(record("events", null, false, properties()).differences(workDir))
        .containsExactly(
            "the index has format=blocks",
            "the index has layout=blocks 3",
            "this run asks format=events",
            "this run asks layout=events");
    assertThat(record("blocks", 512, false, properties()).differences(workDir))
        .containsExactly("the index has blockEvents=1024", "this run asks blockEvents=512");
    assertThat(record("blocks", null, true, properties()).differences(workDir))
        .containsExactly(
            "the index has indexedSessions=false", "this run asks indexedSessions=true");
  }

  @Test
  void noRecordOrARecordOfEarlierRunsIngestsAfresh() throws Exception {
    IngestRecord record = record("blocks", null, false, properties());
    assertThat(record.differences(workDir)).singleElement().asString().contains("no record");

    // the one-line record of the harness before the layout options (dataset, size, format)
    Files.writeString(
        workDir.resolve(IngestRecord.FILE_NAME), "access-1000000-seed42.log 123456 blocks");
    assertThat(record.differences(workDir)).isNotEmpty();

    record.write(workDir);
    assertThat(record.differences(workDir)).isEmpty();
    IngestRecord.forget(workDir);
    assertThat(Files.exists(workDir.resolve(IngestRecord.FILE_NAME))).isFalse();
  }

  @Test
  void aStoreOfAnotherLayoutOrCompressionIngestsAfresh() throws Exception {
    // session 38's jar made postings buckets (blocks 2); this build makes term filters (blocks 3)
    record("zstd", "blocks 3").holding("blocks 2").write(workDir);

    assertThat(record("zstd", "blocks 3").differences(workDir))
        .containsExactly("the index has layout=blocks 2", "this run asks layout=blocks 3");
    assertThat(record("zstd", "blocks 2").differences(workDir)).isEmpty();
    assertThat(record("lz4", "blocks 2").differences(workDir))
        .containsExactly(
            "the index has journalCompression=zstd", "this run asks journalCompression=lz4");
    // what --reuse-index-as-is needs: the same dataset, whatever the settings
    assertThat(record("lz4", "blocks 3").sameDataset(workDir)).isTrue();
    assertThat(
            IngestRecord.of(
                    Path.of("access-2000000-seed42.log"),
                    123_456,
                    new IngestSettings("blocks", 1024, "zstd", "blocks 2"),
                    false,
                    properties())
                .sameDataset(workDir))
        .isFalse();
  }

  @Test
  void aStoreHoldingTwoLayoutsSaysSo() throws Exception {
    IngestRecord held = record("zstd", "blocks 3").holding("blocks 2, blocks 3");
    assertThat(held.layout()).isEqualTo("blocks 2, blocks 3");
    assertThat(held.text()).contains("\nlayout=blocks 2, blocks 3\n");
    held.write(workDir);
    assertThat(record("zstd", "blocks 3").differences(workDir))
        .containsExactly(
            "the index has layout=blocks 2, blocks 3", "this run asks layout=blocks 3");
  }

  @Test
  void theRecordOfSession39WithDefaultsIngestsAfresh() throws Exception {
    // as session 39's harness wrote it: settings not given recorded as "default", no layout
    Files.writeString(
        workDir.resolve(IngestRecord.FILE_NAME),
        """
        dataset=access-1000000-seed42.log
        datasetBytes=123456
        format=blocks
        blockEvents=default
        journalCompression=default
        indexedSessions=false
        """);
    assertThat(record("zstd", "blocks 3").differences(workDir))
        .containsExactly(
            "the index has blockEvents=default",
            "the index has journalCompression=default",
            "this run asks blockEvents=1024",
            "this run asks journalCompression=zstd",
            "this run asks layout=blocks 3");
    assertThat(record("zstd", "blocks 3").sameDataset(workDir)).isTrue();
  }
}
