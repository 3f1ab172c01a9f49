package io.quarry.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.codecs.store.CompactionSettings;
import io.quarry.codecs.store.IndexOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {
  @TempDir Path directory;

  @Test
  void defaultsWithoutAFile() throws Exception {
    QuarryConfig config = ConfigLoader.load(null, Map.of(), Map.of());
    assertThat(config.server().bind()).isEqualTo("127.0.0.1");
    assertThat(config.server().port()).isEqualTo(8088);
    assertThat(config.dataDir()).isEqualTo("./data");
    assertThat(config.indexes()).containsExactly("main");
    assertThat(config.hec().tokens()).isEmpty();
  }

  @Test
  void fileThenEnvironmentThenFlags() throws Exception {
    Path file = directory.resolve("quarry.yml");
    Files.writeString(
        file,
        """
        server:
          port: 9000
          bind: 0.0.0.0
        indexes: [web]
        hec:
          tokens:
            - token: abc
              indexes: [web]
        """);
    QuarryConfig config =
        ConfigLoader.load(
            file,
            Map.of(
                "QUARRY_PORT", "9100", "QUARRY_HEC_TOKEN", "from-env", "QUARRY_DATA_DIR", "/srv/q"),
            Map.of("server.port", "9200"));
    assertThat(config.server().port()).isEqualTo(9200);
    assertThat(config.server().bind()).isEqualTo("0.0.0.0");
    assertThat(config.dataDir()).isEqualTo("/srv/q");
    assertThat(config.indexes()).as("main always exists").containsExactly("main", "web");
    assertThat(config.hec().tokens())
        .extracting(HecToken::token, HecToken::indexes)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("abc", List.of("web")),
            org.assertj.core.groups.Tuple.tuple("from-env", List.of("*")));
  }

  @Test
  void theShippedConfigurationLoads() throws Exception {
    QuarryConfig config =
        ConfigLoader.load(Path.of("../distribution/src/conf/quarry.yml"), Map.of(), Map.of());
    assertThat(config.indexes()).containsExactly("main", "web");
    assertThat(config.server().port()).isEqualTo(8088);
  }

  @Test
  void storageSettingsPerIndex() throws Exception {
    Path file = directory.resolve("storage.yml");
    Files.writeString(
        file,
        """
        indexes: [web]
        storage:
          journalCompression: lz4
          commitIntervalSeconds: 5
          maxBucketEvents: 1000
          maxWaitingBuckets: 2
          indexes:
            web: {journalCompression: zstd, maxAgeDays: 30, maxTotalBytes: 1000000}
        """);
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    var main = config.storage().options("main");
    var web = config.storage().options("web");
    assertThat(main.journalCompression().name()).isEqualTo("LZ4");
    assertThat(main.commitInterval()).hasSeconds(5);
    assertThat(main.maxBucketEvents()).isEqualTo(1000);
    assertThat(main.maxWaitingBuckets()).isEqualTo(2);
    assertThat(web.maxWaitingBuckets()).isEqualTo(2);
    assertThat(ConfigLoader.load(null, Map.of(), Map.of()).storage().options("main"))
        .extracting(IndexOptions::maxWaitingBuckets)
        .isEqualTo(4);
    assertThat(main.maxAge()).isEmpty();
    assertThat(web.journalCompression().name()).isEqualTo("ZSTD");
    assertThat(web.maxAge()).contains(java.time.Duration.ofDays(30));
    assertThat(web.maxTotalBytes()).contains(1_000_000L);
    Files.writeString(file, "storage:\n  journalCompression: none-zstd\n");
    assertThat(
            ConfigLoader.load(file, Map.of(), Map.of())
                .storage()
                .options("main")
                .journalCompression()
                .name())
        .isEqualTo("NONE_ZSTD");
    Files.writeString(file, "storage:\n  journalCompression: brotli\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("unknown journal compression 'brotli'");
    Files.writeString(file, "storage:\n  indexes: {nope: {maxAgeDays: 1}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("'nope', which is not in indexes");
  }

  @Test
  void compactionSettingsOfTheStorageSectionAndPerIndex() throws Exception {
    Path file = directory.resolve("compaction.yml");
    Files.writeString(
        file,
        """
        indexes: [web, bulk]
        storage:
          compaction:
            idleMillis: 2000
            pendingBytes: 536870912
          indexes:
            web: {compaction: {idleMinBytes: 4096}}
            bulk: {compaction: {mode: inline}}
        """);
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(config.storage().options("main").compaction())
        .as("the section's settings, the defaults for those not given")
        .isEqualTo(
            new CompactionSettings(true, java.time.Duration.ofSeconds(2), 1L << 20, 536_870_912L));
    assertThat(config.storage().options("web").compaction())
        .as("the index's own setting over the section's")
        .isEqualTo(
            new CompactionSettings(true, java.time.Duration.ofSeconds(2), 4096, 536_870_912L));
    assertThat(config.storage().options("bulk").compaction().deferred()).isFalse();
    assertThat(ConfigLoader.load(null, Map.of(), Map.of()).storage().options("main").compaction())
        .isEqualTo(CompactionSettings.DEFAULTS);

    Files.writeString(file, "storage:\n  compaction: {idleMillis: soon}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(file + ": storage.compaction.idleMillis: ")
        .hasMessageContaining("\"soon\"");
    Files.writeString(file, "storage:\n  compaction: {idle: 5000}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .as("an unknown setting")
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("\"idle\"");
    Files.writeString(file, "storage:\n  compaction: {mode: eager}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessage(file + ": storage.compaction.mode must be deferred or inline, not 'eager'");
  }

  @Test
  void bucketFormatIsBlocksUnlessStorageOrTheIndexSaysEvents() throws Exception {
    Path file = directory.resolve("format.yml");
    Files.writeString(
        file,
        """
        indexes: [web, main]
        storage:
          indexes:
            web: {format: events}
        """);
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(config.storage().options("web").format())
        .isEqualTo(io.quarry.codecs.store.BucketFormat.EVENTS);
    assertThat(config.storage().options("main").format())
        .isEqualTo(io.quarry.codecs.store.BucketFormat.BLOCKS);
    Files.writeString(
        file,
        """
        indexes: [web, main]
        storage:
          format: events
          indexes:
            web: {format: blocks}
        """);
    config = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(config.storage().options("web").format())
        .isEqualTo(io.quarry.codecs.store.BucketFormat.BLOCKS);
    assertThat(config.storage().options("main").format())
        .isEqualTo(io.quarry.codecs.store.BucketFormat.EVENTS);
    Files.writeString(file, "indexes: [web]\nstorage:\n  format: columns\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("storage.format")
        .hasMessageContaining("must be events or blocks, not 'columns'");
    Files.writeString(file, "indexes: [web]\nstorage:\n  indexes: {web: {format: columns}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("storage.indexes.web.format")
        .hasMessageContaining("must be events or blocks, not 'columns'");
    Files.writeString(
        file, "indexes: [m]\nstorage:\n  indexes: {m: {datatype: metric, format: blocks}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("storage.indexes.m.format is a setting of event indexes");
    // a size bound a metric index would ignore: its retention is maxAgeDays
    Files.writeString(
        file, "indexes: [m]\nstorage:\n  indexes: {m: {datatype: metric, maxTotalBytes: 1000}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("storage.indexes.m.maxTotalBytes is a setting of event indexes");
  }

  @Test
  void blockEventsIsTheStoragesOrTheDefault() throws Exception {
    Path file = directory.resolve("blocks.yml");
    Files.writeString(file, "indexes: [web]\n");
    assertThat(ConfigLoader.load(file, Map.of(), Map.of()).storage().options("web").blockEvents())
        .isEqualTo(io.quarry.codecs.store.IndexOptions.DEFAULT_BLOCK_EVENTS);
    Files.writeString(file, "indexes: [web]\nstorage:\n  blockEvents: 4096\n");
    assertThat(ConfigLoader.load(file, Map.of(), Map.of()).storage().options("web").blockEvents())
        .isEqualTo(4096);
    Files.writeString(file, "indexes: [web]\nstorage:\n  blockEvents: 4097\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("storage.blockEvents must be between 1 and 4096");
  }

  @Test
  void metricIndexSettings() throws Exception {
    Path file = directory.resolve("metrics.yml");
    Files.writeString(
        file,
        """
        indexes: [m, n]
        storage:
          indexes:
            m: {datatype: metric, maxBucketPoints: 500, mergeFactor: 4, maxMergedPoints: 2000}
            n: {datatype: metric}
        """);
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    var m = config.storage().metricOptions("m");
    assertThat(m.maxBucketPoints()).isEqualTo(500);
    assertThat(m.mergeFactor()).isEqualTo(4);
    assertThat(m.maxMergedPoints()).isEqualTo(2000);
    var n = config.storage().metricOptions("n");
    assertThat(n.mergeFactor())
        .isEqualTo(io.quarry.codecs.metricstore.MetricIndexOptions.DEFAULT_MERGE_FACTOR);
    Files.writeString(file, "indexes: [w]\nstorage:\n  indexes: {w: {mergeFactor: 3}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("settings of metric indexes");
    Files.writeString(
        file, "indexes: [m]\nstorage:\n  indexes: {m: {datatype: metric, maxMergedPoints: 0}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("maxMergedPoints must be at least 1");
  }

  @Test
  void sourcetypesOverrideBuiltInsSettingBySettingAndDeclareFieldTypes() throws Exception {
    Path file = directory.resolve("sourcetypes.yml");
    Files.writeString(
        file,
        """
        indexes: [web]
        ingest: {pipelines: 3, maxQueuedBytes: 1000}
        storage:
          indexes:
            web: {fields: {bytes: double}}
        sourcetypes:
          access_combined:
            timezone: Europe/Berlin
            indexExtractions: [{type: regex, regex: '" (?<status>\\d{3}) (?<bytes>\\d+)'}]
            fields: {status: long, bytes: long}
          myapp:
            timeFormat: '%Y-%m-%d %H:%M:%S'
        """);
    QuarryConfig config = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(config.ingest().pipelines()).isEqualTo(3);
    var sourcetypes = config.compiledSourcetypes();
    var access = sourcetypes.forName("access_combined");
    assertThat(access.timestampRule().zone()).hasToString("Europe/Berlin");
    assertThat(access.timestampRule().format().orElseThrow().pattern())
        .isEqualTo("%d/%b/%Y:%H:%M:%S %z"); // kept from the built-in
    assertThat(access.indexFields("1.2.3.4 - - [x] \"GET / HTTP/1.1\" 404 512"))
        .containsEntry("status", java.util.List.of("404"));
    assertThat(sourcetypes.known()).containsKey("myapp");
    // the index's own declaration wins over the sourcetype's
    var web = config.indexOptions("web", sourcetypes);
    assertThat(web.fieldType("status")).isEqualTo(io.quarry.codecs.store.IndexedFieldType.LONG);
    assertThat(web.fieldType("bytes")).isEqualTo(io.quarry.codecs.store.IndexedFieldType.DOUBLE);
  }

  @Test
  void sourcetypeMistakesNameTheSourcetypeAndSetting() throws Exception {
    Path file = directory.resolve("bad-sourcetype.yml");
    Files.writeString(file, "sourcetypes:\n  myapp:\n    timeFormat: '%Y-%Q'\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sourcetype 'myapp'")
        .hasMessageContaining("unknown directive %Q");
    Files.writeString(
        file, "sourcetypes:\n  a: {fields: {x: long}}\n  b: {fields: {x: keyword}}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("field 'x' is declared");
    Files.writeString(file, "sourcetypes:\n  a: {breakOnlyBefore: '(unclosed'}\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of(), Map.of()))
        .hasMessageContaining("sourcetype 'a': breakOnlyBefore is not a valid regular expression");
  }

  @Test
  void mistakesAreNamed() throws Exception {
    Path typo = directory.resolve("typo.yml");
    Files.writeString(typo, "server:\n  prot: 9000\n");
    assertThatThrownBy(() -> ConfigLoader.load(typo, Map.of(), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("typo.yml")
        .hasMessageContaining("prot");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("QUARRY_PORT", "70000"), Map.of()))
        .hasMessageContaining("server.port must be 0..65535");
    assertThatThrownBy(() -> ConfigLoader.load(null, Map.of("QUARRY_PORT", "eighty"), Map.of()))
        .isInstanceOf(ConfigException.class);
    assertThatThrownBy(() -> ConfigLoader.load(directory.resolve("absent.yml"), Map.of(), Map.of()))
        .hasMessageContaining("configuration file not found");
  }
}
