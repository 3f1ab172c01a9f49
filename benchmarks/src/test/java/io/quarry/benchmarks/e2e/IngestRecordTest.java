package io.quarry.benchmarks.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --reuse-index} reuses an index only when its {@code data-ingested.txt} records this run's
 * dataset and layout options: a {@code -Dquarry.storage.*} property (term filters on), the format,
 * the block size or JSESSIONID at index time set differently makes it ingest afresh, saying what
 * differs; properties of other prefixes do not count.
 */
class IngestRecordTest {
  @TempDir Path workDir;

  private static final Path DATASET = Path.of("access-1000000-seed42.log");

  private static IngestRecord record(
      String format, Integer blockEvents, boolean indexedSessions, Properties properties) {
    return IngestRecord.of(
        DATASET, 123_456, format, blockEvents, null, indexedSessions, properties);
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
        .containsExactly("the index has format=blocks", "this run asks format=events");
    assertThat(record("blocks", 512, false, properties()).differences(workDir))
        .containsExactly("the index has blockEvents=default", "this run asks blockEvents=512");
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
}
