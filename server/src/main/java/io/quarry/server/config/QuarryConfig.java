package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.codecs.store.IndexedFieldType;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The whole configuration: its sections, each a record of this package with its settings' defaults
 * ({@link Server}, {@link Auth}, {@link Hec}, {@link Search}, {@link Storage}, {@link Ingest},
 * {@link Plugins}), the data directory, the indexes and the sourcetypes; {@code conf/quarry.yml}
 * documents each setting.
 */
public record QuarryConfig(
    @JsonProperty("server") Server server,
    @JsonProperty("dataDir") String dataDir,
    @JsonProperty("indexes") List<String> indexes,
    @JsonProperty("auth") Auth auth,
    @JsonProperty("hec") Hec hec,
    @JsonProperty("search") Search search,
    @JsonProperty("storage") Storage storage,
    @JsonProperty("ingest") Ingest ingest,
    @JsonProperty("sourcetypes") Map<String, SourcetypeSettings> sourcetypes,
    @JsonProperty("plugins") Plugins plugins) {

  public static final String DEFAULT_INDEX = "main";

  /** Settings by their path in {@code conf/quarry.yml}, every other one at its default. */
  public static ConfigBuilder builder() {
    return new ConfigBuilder();
  }

  public QuarryConfig {
    server =
        Objects.requireNonNullElseGet(
            server,
            () ->
                new Server(null, null, null, null, null, null, null, null, null, null, null, null));
    dataDir = Objects.requireNonNullElse(dataDir, "./data");
    indexes = IndexesSettings.withMain(indexes);
    auth = Objects.requireNonNullElseGet(auth, () -> new Auth(null, null, null));
    hec = Objects.requireNonNullElseGet(hec, () -> new Hec(null));
    search =
        Objects.requireNonNullElseGet(
            search,
            () ->
                new Search(null, null, null, null, null, null, null, null, null, null, null, null));
    storage =
        Objects.requireNonNullElseGet(
            storage,
            () ->
                new Storage(
                    null, null, null, null, null, null, null, null, null, null, null, null));
    ingest = Objects.requireNonNullElseGet(ingest, () -> new Ingest(null, null));
    sourcetypes = sourcetypes == null ? Map.of() : Map.copyOf(sourcetypes);
    plugins = Objects.requireNonNullElseGet(plugins, () -> new Plugins(null));
    new Sourcetypes(sourcetypes).declaredFieldTypes(); // fails here, naming what is wrong
    IndexesSettings.check(indexes, storage.indexes().keySet());
  }

  /**
   * The index Quarry writes its own log to; it always exists, is left out of {@code index=*}, and
   * keeps {@link #INTERNAL_RETENTION_DAYS} days unless {@code storage.indexes._internal} says
   * otherwise.
   */
  public static final String INTERNAL_INDEX = "_internal";

  public static final int INTERNAL_RETENTION_DAYS = 30;

  /**
   * The index of the audit trail (logins, searches, configuration changes); it always exists, is
   * left out of {@code index=*}, is readable by {@code admin} only unless a role names it, and
   * keeps events until {@code storage.indexes._audit} says otherwise.
   */
  public static final String AUDIT_INDEX = "_audit";

  /**
   * The settings of a server embedded in a test or a tool: 127.0.0.1 on a free port, 4 worker
   * threads, requests up to 64 MiB, the data in {@code dataDirectory}, index {@code main}, this
   * admin password and a HEC token {@code hecToken} (named {@code test}) writing {@code main}; a
   * caller puts more.
   */
  public static ConfigBuilder embedded(
      java.nio.file.Path dataDirectory, String adminPassword, String hecToken) {
    return builder()
        .put("server.port", 0)
        .put("server.maxRequestBytes", 64L << 20)
        .put("server.workerThreads", 4)
        .put("dataDir", dataDirectory.toString())
        .put("indexes", List.of(DEFAULT_INDEX))
        .put("auth.adminPassword", adminPassword)
        .add(
            "hec.tokens",
            Map.of("token", hecToken, "name", "test", "indexes", List.of(DEFAULT_INDEX)));
  }

  /** A copy with another list of indexes (the demo adds its own). */
  public QuarryConfig withIndexes(List<String> newIndexes) {
    return new QuarryConfig(
        server, dataDir, newIndexes, auth, hec, search, storage, ingest, sourcetypes, plugins);
  }

  /** The built-in sourcetypes with the configured ones laid over them. */
  public Sourcetypes compiledSourcetypes() {
    return new Sourcetypes(sourcetypes);
  }

  /**
   * The storage options of one index: its own settings, with the field types sourcetypes declare
   * for fields the index does not declare itself.
   */
  public IndexOptions indexOptions(String index, Sourcetypes compiled) {
    IndexOptions options = storage.options(index);
    Map<String, IndexedFieldType> types = new java.util.HashMap<>(compiled.declaredFieldTypes());
    types.putAll(options.fieldTypes());
    return options.toBuilder().fieldTypes(types).build();
  }
}
