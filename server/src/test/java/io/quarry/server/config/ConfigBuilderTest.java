package io.quarry.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quarry.server.sourcetype.SourcetypeSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Settings in code by their path bind as the same settings in {@code quarry.yml} do. */
class ConfigBuilderTest {
  @TempDir Path directory;

  @Test
  void settingsByPathEqualTheSameSettingsInAFile() throws Exception {
    Path file = directory.resolve("quarry.yml");
    Files.writeString(
        file,
        """
        server:
          port: 9000
          idleTimeoutSeconds: 7
          tls:
            enabled: true
        dataDir: /srv/q
        indexes: [web, m]
        auth:
          adminPassword: pw
        hec:
          tokens:
            - token: a
              indexes: [web]
            - token: b
              ack: true
        search:
          maxResultRows: 1500
        storage:
          indexes:
            m:
              datatype: metric
              maxBucketPoints: 200
        ingest:
          pipelines: 1
        sourcetypes:
          shop:
            timeFormat: "%Y-%m-%d"
        plugins:
          dir: /srv/plugins
        """);
    QuarryConfig built =
        QuarryConfig.builder()
            .put("server.port", 9000)
            .put("server.idleTimeoutSeconds", 7)
            .put("server.tls.enabled", true)
            .put("dataDir", "/srv/q")
            .put("indexes", List.of("web", "m"))
            .put("auth.adminPassword", "pw")
            .add("hec.tokens", Map.of("token", "a", "indexes", List.of("web")))
            .add("hec.tokens", new HecToken("b", null, null, null, true))
            .put("search.maxResultRows", 1500)
            .put("storage.indexes.m.datatype", "metric")
            .put("storage.indexes.m.maxBucketPoints", 200)
            .put("ingest.pipelines", 1)
            .put(
                "sourcetypes.shop", new SourcetypeSettings.Builder().timeFormat("%Y-%m-%d").build())
            .put("plugins.dir", "/srv/plugins")
            .build();
    QuarryConfig loaded = ConfigLoader.load(file, Map.of(), Map.of());
    assertThat(built).isEqualTo(loaded);
    assertThat(built.server().idleTimeoutSeconds()).isEqualTo(7);
    assertThat(built.hec().tokens().get(1).ack()).isTrue();
    assertThat(built.storage().isMetric("m")).isTrue();
  }

  @Test
  void aSettingsRecordIsWrittenAsItsMappingAndALaterPutReplacesIt() {
    Tls tls = new Tls(true, null, null, null, "want", "ca.pem", null, null);
    QuarryConfig config =
        QuarryConfig.builder()
            .put("server.tls", tls)
            .put("server.tls.clientCa", "other.pem")
            .build();
    assertThat(config.server().tls().clientAuth()).isEqualTo(tls.clientAuth());
    assertThat(config.server().tls().clientCa()).isEqualTo("other.pem");
    assertThat(QuarryConfig.builder().put("server.tls", tls).build().server().tls()).isEqualTo(tls);
  }

  @Test
  void aWrongSettingIsRefusedNamingIt() {
    assertThatThrownBy(() -> QuarryConfig.builder().put("server.prot", 1).build())
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("prot");
    assertThatThrownBy(
            () ->
                QuarryConfig.builder()
                    .put("search.jobTtlSeconds", 7200)
                    .put("search.maxJobTtlSeconds", 3600)
                    .build())
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("search.jobTtlSeconds (7200)");
  }

  /**
   * put's Javadoc: a settings record is written as its YAML mapping. Auth's canonical constructor
   * adds the built-in roles (admin, user), so its mapping names auth.roles.admin, which binding
   * then refuses ("cannot be redefined"): an Auth record cannot be put at all.
   */
  @Test
  void anAuthRecordIsWrittenAsItsMapping() {
    Auth auth = new Auth("pw", null, null);
    assertThat(QuarryConfig.builder().put("auth", auth).build().auth()).isEqualTo(auth);
  }

  /** Configured roles, the user role redefined and users: the record still round-trips. */
  @Test
  void anAuthRecordWithRolesAndUsersIsWrittenAsItsMapping() {
    Role ops = new Role(List.of("web"), null, null, null, 5, null);
    Role user = new Role(List.of("main"), null, null, null, 1, null);
    Auth auth =
        new Auth(
            "pw",
            List.of(new User("ann", "pw2", List.of("ops"))),
            Map.of("ops", ops, "user", user));
    Auth built = QuarryConfig.builder().put("auth", auth).build().auth();
    assertThat(built).isEqualTo(auth);
    assertThat(built.roles().get("user").srchJobsQuota()).isEqualTo(1);
  }

  /**
   * A record put then one setting of it replaced binds as that setting alone over the defaults (the
   * record's default jobTtlSeconds not frozen: a smaller maxJobTtlSeconds put after it is taken).
   */
  @Test
  void aLaterPutOverARecordActsAsOverTheDefaults() {
    Search defaults = QuarryConfig.builder().build().search();
    QuarryConfig alone = QuarryConfig.builder().put("search.maxJobTtlSeconds", 300).build();
    QuarryConfig overRecord =
        QuarryConfig.builder().put("search", defaults).put("search.maxJobTtlSeconds", 300).build();
    assertThat(overRecord.search()).isEqualTo(alone.search());
  }

  /**
   * A field derived from another (search.jobTtlSeconds = min(600, maxJobTtlSeconds)) that differs
   * from its default is derived again, not written as if set: a record with maxJobTtlSeconds 300
   * (so jobTtlSeconds 300) then a maxJobTtlSeconds of 1,000 put over it binds as 1,000 alone would
   * (jobTtlSeconds 600); a jobTtlSeconds the record sets itself stays.
   */
  @Test
  void aDerivedFieldOfARecordIsDerivedAgainWhenTheFieldItComesFromChanges() {
    Search small = QuarryConfig.builder().put("search.maxJobTtlSeconds", 300).build().search();
    assertThat(small.jobTtlSeconds()).isEqualTo(300);
    QuarryConfig alone = QuarryConfig.builder().put("search.maxJobTtlSeconds", 1000).build();
    QuarryConfig overRecord =
        QuarryConfig.builder().put("search", small).put("search.maxJobTtlSeconds", 1000).build();
    assertThat(overRecord.search().jobTtlSeconds()).isEqualTo(600);
    assertThat(overRecord.search()).isEqualTo(alone.search());

    Search own =
        QuarryConfig.builder()
            .put("search.maxJobTtlSeconds", 300)
            .put("search.jobTtlSeconds", 200)
            .build()
            .search();
    Search ownOver =
        QuarryConfig.builder()
            .put("search", own)
            .put("search.maxJobTtlSeconds", 1000)
            .build()
            .search();
    assertThat(ownOver.jobTtlSeconds()).isEqualTo(200);
    assertThat(QuarryConfig.builder().put("search", small).build().search()).isEqualTo(small);
  }

  /** Each other section's record, put whole, binds as itself (the defaults' records). */
  @Test
  void everyOtherSectionRecordIsWrittenAsItsMapping() {
    QuarryConfig defaults = QuarryConfig.builder().build();
    assertThat(QuarryConfig.builder().put("server", defaults.server()).build()).isEqualTo(defaults);
    assertThat(QuarryConfig.builder().put("hec", defaults.hec()).build()).isEqualTo(defaults);
    assertThat(QuarryConfig.builder().put("search", defaults.search()).build()).isEqualTo(defaults);
    assertThat(QuarryConfig.builder().put("storage", defaults.storage()).build())
        .isEqualTo(defaults);
    assertThat(QuarryConfig.builder().put("ingest", defaults.ingest()).build()).isEqualTo(defaults);
    assertThat(QuarryConfig.builder().put("plugins", defaults.plugins()).build())
        .isEqualTo(defaults);
  }

  /** A setting on the path that is not a mapping is refused naming the path, not replaced. */
  @Test
  void aSettingWhereAMappingOrListBelongsIsRefusedNamingThePath() throws Exception {
    assertThatThrownBy(
            () -> QuarryConfig.builder().put("server", 8088).put("server.port", 9000).build())
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("server is a mapping, not '8088'")
        .hasMessageContaining("server.port");
    assertThatThrownBy(
            () ->
                QuarryConfig.builder()
                    .put("hec.tokens", Map.of("token", "x"))
                    .add("hec.tokens", Map.of("token", "y")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("hec.tokens is a list, not a mapping");
    // quarry.yml's hec.tokens a mapping, the environment's token appended to it
    Path file = directory.resolve("quarry.yml");
    Files.writeString(file, "hec:\n  tokens:\n    token: x\n");
    assertThatThrownBy(() -> ConfigLoader.load(file, Map.of("QUARRY_HEC_TOKEN", "y"), Map.of()))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("hec.tokens");
  }

  /** A name with a dot (an index, a sourcetype) is a key of a map put whole at its parent. */
  @Test
  void aNameWithADotIsPutWithItsMapWhole() {
    QuarryConfig config =
        QuarryConfig.builder()
            .put("indexes", List.of("web.v2"))
            .put("storage.indexes", Map.of("web.v2", Map.of("maxAgeDays", 7)))
            .build();
    assertThat(config.storage().indexes()).containsOnlyKeys("web.v2");
    assertThat(config.storage().indexes().get("web.v2").maxAgeDays()).isEqualTo(7);
    assertThat(config.storage().options("web.v2").maxAge()).contains(java.time.Duration.ofDays(7));
  }

  /** The defaults, written out by hand: a moved default fails here. */
  @Test
  void theDefaultsAreThoseDocumented() {
    QuarryConfig config = QuarryConfig.builder().build();
    assertThat(config.dataDir()).isEqualTo("./data");
    assertThat(config.indexes()).containsExactly("main");
    Server server = config.server();
    assertThat(server.bind()).isEqualTo("127.0.0.1");
    assertThat(server.port()).isEqualTo(8088);
    assertThat(server.maxRequestBytes()).isEqualTo(64L * 1024 * 1024);
    assertThat(server.writeTimeoutSeconds()).isEqualTo(30);
    assertThat(server.idleTimeoutSeconds()).isEqualTo(60);
    assertThat(server.requestReadTimeoutSeconds()).isEqualTo(120);
    assertThat(server.maxConnections()).isEqualTo(10_000);
    assertThat(server.allowPlaintext()).isFalse();
    assertThat(server.tls().enabled()).isFalse();
    assertThat(config.auth().adminPassword()).isNull();
    assertThat(config.auth().users()).isEmpty();
    assertThat(config.auth().roles()).containsOnlyKeys("admin", "user");
    assertThat(config.auth().roles().get("user").srchIndexesDefault()).containsExactly("main");
    assertThat(config.auth().roles().get("user").srchJobsQuota()).isEqualTo(3);
    assertThat(config.hec().tokens()).isEmpty();
    HecToken token =
        QuarryConfig.builder()
            .add("hec.tokens", Map.of("token", "t"))
            .build()
            .hec()
            .tokens()
            .get(0);
    assertThat(token.ack()).isFalse();
    assertThat(token.name()).isEqualTo("token");
    assertThat(token.defaultIndex()).isEqualTo("main");
    assertThat(token.indexes()).containsExactly("main");
    Search search = config.search();
    assertThat(search.defaultEarliest()).isEmpty();
    assertThat(search.maxResultRows()).isEqualTo(1_000_000L);
    assertThat(search.maxTimeSeconds()).isEqualTo(600);
    assertThat(search.maxJobs()).isEqualTo(1000);
    assertThat(search.maxJobTtlSeconds()).isEqualTo(86_400);
    assertThat(search.jobTtlSeconds()).isEqualTo(600);
    assertThat(search.queueOverQuota()).isFalse();
    Storage storage = config.storage();
    assertThat(storage.journalCompression()).isEqualTo("lz4-zstd");
    assertThat(storage.format()).isEqualTo("blocks");
    assertThat(storage.commitIntervalSeconds()).isEqualTo(10);
    assertThat(storage.maxBucketEvents()).isEqualTo(10_000_000L);
    assertThat(storage.blockEvents()).isEqualTo(1024);
    assertThat(storage.maxHotBucketAgeHours()).isEqualTo(24);
    assertThat(storage.indexes()).isEmpty();
    io.quarry.codecs.store.IndexOptions main = storage.options("main");
    assertThat(main.format()).isEqualTo(io.quarry.codecs.store.BucketFormat.BLOCKS);
    assertThat(main.commitInterval()).isEqualTo(java.time.Duration.ofSeconds(10));
    assertThat(main.maxBucketEvents()).isEqualTo(10_000_000L);
    assertThat(main.maxHotAge()).isEqualTo(java.time.Duration.ofHours(24));
    assertThat(main.maxAge()).isEmpty();
    assertThat(main.maxTotalBytes()).isEmpty();
    assertThat(main.blockEvents()).isEqualTo(1024);
    assertThat(storage.isMetric("main")).isFalse();
    assertThat(config.ingest().maxQueuedBytes()).isEqualTo(256L << 20);
    assertThat(config.sourcetypes()).isEmpty();
  }
}
