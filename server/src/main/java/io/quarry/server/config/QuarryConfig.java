package io.quarry.server.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarry.codecs.store.IndexOptions;
import io.quarry.codecs.store.IndexedFieldType;
import io.quarry.server.sourcetype.SourcetypeSettings;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The whole configuration. Every field has its default here; {@code conf/quarry.yml} documents
 * each.
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
            storage, () -> new Storage(null, null, null, null, null, null, null));
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
    return options.withFieldTypes(types);
  }

  /** The HTTP listener. */
  public record Server(
      @JsonProperty("bind") String bind,
      @JsonProperty("port") Integer port,
      @JsonProperty("maxRequestBytes") Long maxRequestBytes,
      @JsonProperty("workerThreads") Integer workerThreads,
      @JsonProperty("maxInFlightBytes") Long maxInFlightBytes,
      @JsonProperty("ingestWorkerThreads") Integer ingestWorkerThreads,
      @JsonProperty("writeTimeoutSeconds") Integer writeTimeoutSeconds,
      @JsonProperty("idleTimeoutSeconds") Integer idleTimeoutSeconds,
      @JsonProperty("requestReadTimeoutSeconds") Integer requestReadTimeoutSeconds,
      @JsonProperty("maxConnections") Integer maxConnections,
      @JsonProperty("tls") Tls tls,
      @JsonProperty("allowPlaintext") Boolean allowPlaintext) {
    public Server {
      maxInFlightBytes =
          Objects.requireNonNullElse(
              maxInFlightBytes, Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4));
      bind = Objects.requireNonNullElse(bind, "127.0.0.1");
      port = Objects.requireNonNullElse(port, 8088);
      maxRequestBytes = Objects.requireNonNullElse(maxRequestBytes, 64L * 1024 * 1024);
      workerThreads =
          Objects.requireNonNullElse(
              workerThreads, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
      ingestWorkerThreads =
          Objects.requireNonNullElse(
              ingestWorkerThreads, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
      writeTimeoutSeconds = Objects.requireNonNullElse(writeTimeoutSeconds, 30);
      idleTimeoutSeconds = Objects.requireNonNullElse(idleTimeoutSeconds, 60);
      requestReadTimeoutSeconds = Objects.requireNonNullElse(requestReadTimeoutSeconds, 120);
      maxConnections = Objects.requireNonNullElse(maxConnections, 10_000);
      ServerSettings.check(
          maxInFlightBytes,
          port,
          maxRequestBytes,
          workerThreads,
          ingestWorkerThreads,
          writeTimeoutSeconds,
          idleTimeoutSeconds,
          requestReadTimeoutSeconds,
          maxConnections);
      tls =
          Objects.requireNonNullElseGet(
              tls, () -> new Tls(null, null, null, null, null, null, null, null));
      allowPlaintext = Objects.requireNonNullElse(allowPlaintext, false);
    }

    /**
     * Why this listener may not start, or null when it may: plain HTTP on an address other than
     * loopback needs {@code server.allowPlaintext: true} (passwords and tokens would cross the
     * network in the clear).
     */
    public String plaintextRefusal() {
      return ServerSettings.plaintextRefusal(this);
    }
  }

  /**
   * TLS on the HTTP port: a PEM certificate chain and its PEM private key (PKCS#8, or PKCS#1 RSA),
   * TLS 1.2 and 1.3 only. Enabled without a certificate, the server generates a self-signed one
   * into the data directory on first start.
   */
  public record Tls(
      @JsonProperty("enabled") Boolean enabled,
      @JsonProperty("certificate") String certificate,
      @JsonProperty("key") String key,
      @JsonProperty("keyPassword") String keyPassword,
      @JsonProperty("clientAuth") String clientAuth,
      @JsonProperty("clientCa") String clientCa,
      @JsonProperty("clientCertificateRequired") List<String> clientCertificateRequired,
      @JsonProperty("certificateUsers") Map<String, String> certificateUsers) {
    /** No client certificate asked for. */
    public static final String CLIENT_AUTH_NONE = "none";

    /** A client certificate asked for and, when one is sent, checked against {@code clientCa}. */
    public static final String CLIENT_AUTH_OPTIONAL = "optional";

    /** No connection without a client certificate signed by a CA of {@code clientCa}. */
    public static final String CLIENT_AUTH_REQUIRED = "required";

    /** {@code want}: Netty's and Elasticsearch's name for {@link #CLIENT_AUTH_OPTIONAL}. */
    public static final String CLIENT_AUTH_WANT = "want";

    /** The route group of HEC ({@code /services/collector…} but its health check). */
    public static final String GROUP_HEC = "hec";

    /** The route group of everything else but {@code /health}: search, Splunk's REST, the UI. */
    public static final String GROUP_REST = "rest";

    public Tls {
      enabled = Objects.requireNonNullElse(enabled, false);
      certificate = TlsSettings.blankToNull(certificate);
      key = TlsSettings.blankToNull(key);
      keyPassword = TlsSettings.blankToNull(keyPassword);
      clientAuth = TlsSettings.clientAuth(clientAuth);
      clientCa = TlsSettings.blankToNull(clientCa);
      clientCertificateRequired =
          clientCertificateRequired == null ? List.of() : List.copyOf(clientCertificateRequired);
      certificateUsers = certificateUsers == null ? Map.of() : Map.copyOf(certificateUsers);
      TlsSettings.check(
          enabled,
          certificate,
          key,
          clientAuth,
          clientCa,
          clientCertificateRequired,
          certificateUsers);
    }

    /** Whether the server makes its own certificate (TLS on, none configured). */
    public boolean generatesCertificate() {
      return enabled && certificate == null;
    }
  }

  /**
   * Search authentication: HTTP Basic (or a session key) as {@code admin} or one of {@code users},
   * and the roles that say what each may read and change. {@code admin} has the built-in {@code
   * admin} role (every index, internal ones included, every capability); a user without {@code
   * roles} has the built-in {@code user} role (every non-internal index, default {@code main}, no
   * capability), which {@code auth.roles.user} may redefine.
   */
  public record Auth(
      @JsonProperty("adminPassword") String adminPassword,
      @JsonProperty("users") List<User> users,
      @JsonProperty("roles") Map<String, Role> roles) {
    /** The role every user has when they name none. */
    public static final String USER_ROLE = "user";

    /** The role of {@code admin}. */
    public static final String ADMIN_ROLE = "admin";

    public Auth {
      AuthSettings.checkAdminPassword(adminPassword);
      users = users == null ? List.of() : List.copyOf(users);
      roles = AuthSettings.withBuiltInRoles(roles);
      AuthSettings.checkUsers(users, roles);
    }

    /** Never the admin password; users print without theirs. */
    @Override
    public String toString() {
      return "Auth[adminPassword="
          + (adminPassword == null ? "unset" : "set")
          + ", users="
          + users
          + ", roles="
          + roles.keySet()
          + "]";
    }

    /** Whether {@code name} may name a role: 1 to 64 letters, digits or {@code _.-}. */
    public static boolean validName(String name) {
      return name != null && name.matches("[A-Za-z0-9_.-]{1,64}");
    }
  }

  /**
   * A role, after Splunk's {@code authorize.conf}: the indexes its users may search ({@code
   * srchIndexesAllowed}: names or {@code *} wildcards; a wildcard matches an internal index, one
   * whose name starts with {@code _}, only when the pattern starts with {@code _} too, as {@code
   * _*} or {@code _internal}), the indexes a search that names none reads ({@code
   * srchIndexesDefault}), capabilities ({@code edit_lookups}: upload and delete lookups, {@code
   * outputlookup}; {@code admin_all_objects}: every user's search jobs, not only one's own; {@code
   * edit_tcp}: send events through {@code receivers/simple}), a search expression ANDed into every
   * search of its users ({@code srchFilter}), and quotas: how many searches one user may run at
   * once ({@code srchJobsQuota}, default 3 as in Splunk, 0 for no limit) and for how long ({@code
   * srchMaxTime}).
   */
  public record Role(
      @JsonProperty("srchIndexesAllowed") List<String> srchIndexesAllowed,
      @JsonProperty("srchIndexesDefault") List<String> srchIndexesDefault,
      @JsonProperty("capabilities") List<String> capabilities,
      @JsonProperty("srchFilter") String srchFilter,
      @JsonProperty("srchJobsQuota") Integer srchJobsQuota,
      @JsonProperty("srchMaxTime") String srchMaxTime) {
    /** Upload and delete lookup tables, and write them with {@code outputlookup}. */
    public static final String EDIT_LOOKUPS = "edit_lookups";

    /** See, read, finalize, cancel and delete every user's search jobs, not only one's own. */
    public static final String ADMIN_ALL_OBJECTS = "admin_all_objects";

    /**
     * Send events over Splunk's {@code receivers/simple} with user credentials (Splunk's name for
     * the capability); HEC tokens need none.
     */
    public static final String EDIT_TCP = "edit_tcp";

    /**
     * Create, change and delete roles over Splunk's {@code authorization/roles}: only roles no
     * stronger than one's own (Splunk's name for the capability).
     */
    public static final String EDIT_ROLES = "edit_roles";

    /**
     * Create, change and delete users over Splunk's {@code authentication/users}, and see them all:
     * only with roles no stronger than one's own (Splunk's name for the capability).
     */
    public static final String EDIT_USER = "edit_user";

    public static final Set<String> CAPABILITIES =
        Set.of(EDIT_LOOKUPS, ADMIN_ALL_OBJECTS, EDIT_TCP, EDIT_ROLES, EDIT_USER);

    /** Splunk's default {@code srchJobsQuota} (its {@code user} role's). */
    public static final int DEFAULT_JOBS_QUOTA = 3;

    /** Splunk's {@code srchJobsQuota} of its {@code admin} role. */
    public static final int ADMIN_JOBS_QUOTA = 50;

    /** The built-in role of {@code admin}. */
    public static final Role ADMIN =
        new Role(
            List.of("*", "_*"),
            List.of(DEFAULT_INDEX),
            List.of(EDIT_LOOKUPS, ADMIN_ALL_OBJECTS, EDIT_TCP, EDIT_ROLES, EDIT_USER),
            null,
            ADMIN_JOBS_QUOTA,
            null);

    /** The built-in role of users who name none. */
    public static final Role USER =
        new Role(List.of("*"), List.of(DEFAULT_INDEX), List.of(), null, null, null);

    public Role {
      srchIndexesAllowed =
          srchIndexesAllowed == null ? List.of("*") : List.copyOf(srchIndexesAllowed);
      srchIndexesDefault =
          srchIndexesDefault == null ? List.of(DEFAULT_INDEX) : List.copyOf(srchIndexesDefault);
      capabilities = capabilities == null ? List.of() : List.copyOf(capabilities);
      srchFilter = srchFilter == null || srchFilter.isBlank() ? null : srchFilter.strip();
      srchJobsQuota = srchJobsQuota == null ? DEFAULT_JOBS_QUOTA : srchJobsQuota;
      srchMaxTime = srchMaxTime == null || srchMaxTime.isBlank() ? null : srchMaxTime.strip();
    }

    /**
     * The most searches one user of this role may run at once (queued jobs included); 0 means no
     * limit, as in Splunk.
     */
    public int jobsQuota() {
      return srchJobsQuota;
    }

    /**
     * The longest a search of this role's users may read events ({@code srchMaxTime}: a number of
     * seconds, or a number with a unit {@code s}, {@code m}, {@code h}, {@code d} — {@code 10m},
     * {@code 8h}, {@code 100days} as Splunk writes it), or empty when the role sets none (or {@code
     * 0}: no limit).
     */
    public java.util.Optional<java.time.Duration> maxTime() {
      return RoleSettings.maxTime(srchMaxTime);
    }

    /** Checks the settings of the role {@code name}; the message names the setting. */
    public void check(String name) {
      RoleSettings.check(this, name);
    }

    /** Whether {@code index} is among {@link #srchIndexesAllowed}. */
    public boolean allows(String index) {
      return matchesAny(srchIndexesAllowed, index);
    }

    /**
     * Whether a name matches one of the patterns (case-insensitive, {@code *} any characters); a
     * name starting with {@code _} (an internal index) matches only a pattern starting with {@code
     * _}.
     */
    public static boolean matchesAny(List<String> patterns, String index) {
      return RoleSettings.matchesAny(patterns, index);
    }
  }

  /**
   * A user who may search, besides {@code admin}: a name, a password (a PBKDF2 hash from {@code
   * quarry passwd-hash}, or plain text, which the server warns about at start) and roles (default
   * {@code user}).
   */
  public record User(
      @JsonProperty("name") String name,
      @JsonProperty("password") String password,
      @JsonProperty("roles") List<String> roles) {
    public User {
      AuthSettings.checkUser(name, password);
      roles = roles == null || roles.isEmpty() ? List.of(Auth.USER_ROLE) : List.copyOf(roles);
    }

    /** Never the password (a settings record may reach a log line or an error message). */
    @Override
    public String toString() {
      return "User[name=" + name + ", roles=" + roles + "]";
    }
  }

  /** The HTTP Event Collector. */
  public record Hec(@JsonProperty("tokens") List<HecToken> tokens) {
    public Hec {
      tokens = tokens == null ? List.of() : List.copyOf(tokens);
    }
  }

  /**
   * One HEC token: the secret, a name for logs and metrics, the index for events that name none,
   * the indexes it may write ({@code *} for all), and whether indexer acknowledgement is on (then
   * requests need a channel and answers carry an {@code ackId}).
   */
  public record HecToken(
      @JsonProperty("token") String token,
      @JsonProperty("name") String name,
      @JsonProperty("defaultIndex") String defaultIndex,
      @JsonProperty("indexes") List<String> indexes,
      @JsonProperty("ack") Boolean ack) {
    public HecToken {
      ack = Objects.requireNonNullElse(ack, false);
      if (token == null || token.isBlank()) {
        throw new IllegalArgumentException("hec.tokens[].token must be set");
      }
      name = Objects.requireNonNullElse(name, "token");
      defaultIndex = Objects.requireNonNullElse(defaultIndex, DEFAULT_INDEX);
      indexes = indexes == null ? List.of(defaultIndex) : List.copyOf(indexes);
    }

    /** Never the token itself: its name says which one. */
    @Override
    public String toString() {
      return "HecToken[name="
          + name
          + ", defaultIndex="
          + defaultIndex
          + ", indexes="
          + indexes
          + ", ack="
          + ack
          + "]";
    }

    /** Whether the token may write to an index; {@code *} covers all but internal ones. */
    public boolean mayWrite(String index) {
      return indexes.contains(index) || (indexes.contains("*") && !index.startsWith("_"));
    }
  }

  /**
   * Ingest pipelines: how many batches are parsed and indexed at once (default: the cores), and how
   * many bytes of batches may wait for one before HEC answers 503 "server busy".
   */
  public record Ingest(
      @JsonProperty("pipelines") Integer pipelines,
      @JsonProperty("maxQueuedBytes") Long maxQueuedBytes) {
    public Ingest {
      pipelines = Objects.requireNonNullElse(pipelines, Runtime.getRuntime().availableProcessors());
      Bounds.atLeastOne(pipelines, "ingest.pipelines");
      maxQueuedBytes = Objects.requireNonNullElse(maxQueuedBytes, 256L << 20);
      Bounds.positive(maxQueuedBytes, "ingest.maxQueuedBytes");
    }
  }

  /**
   * Command plugins: the directory whose subdirectories are plugins (default {@code plugins/} of
   * the distribution, else {@code ./plugins}; absent is fine).
   */
  public record Plugins(@JsonProperty("dir") String dir) {
    public Plugins {
      if (dir == null) {
        String home = System.getProperty("quarry.home");
        dir = home == null ? "./plugins" : java.nio.file.Path.of(home, "plugins").toString();
      }
    }
  }

  /** Search limits. */
  public record Search(
      @JsonProperty("defaultEarliest") String defaultEarliest,
      @JsonProperty("maxResultRows") Long maxResultRows,
      @JsonProperty("maxTimeSeconds") Integer maxTimeSeconds,
      @JsonProperty("maxConcurrentJobs") Integer maxConcurrentJobs,
      @JsonProperty("maxJobs") Integer maxJobs,
      @JsonProperty("jobTtlSeconds") Integer jobTtlSeconds,
      @JsonProperty("maxMemoryBytes") Long maxMemoryBytes,
      @JsonProperty("macros") Map<String, MacroSettings> macroSettings,
      @JsonProperty("savedSearches") Map<String, SavedSearchSettings> savedSearchSettings,
      @JsonProperty("maxTotalMemoryBytes") Long maxTotalMemoryBytes,
      @JsonProperty("maxJobTtlSeconds") Integer maxJobTtlSeconds,
      @JsonProperty("queueOverQuota") Boolean queueOverQuota) {
    /** The longest a finished job is kept by default, and at most, in seconds (a day). */
    public static final int DEFAULT_MAX_JOB_TTL_SECONDS = 86_400;

    /** The configured saved searches by name, owned by {@code nobody}. */
    public Map<String, io.quarry.server.saved.SavedSearch> savedSearches() {
      return SearchSettings.savedSearches(savedSearchSettings);
    }

    /** The search macros, checked (names, arities, argument names). */
    public io.quarry.ql.parser.Macros macros() {
      return SearchSettings.macros(macroSettings);
    }

    public Search {
      macroSettings = macroSettings == null ? Map.of() : Map.copyOf(macroSettings);
      savedSearchSettings =
          savedSearchSettings == null ? Map.of() : Map.copyOf(savedSearchSettings);
      SearchSettings.checkMacros(macroSettings);
      maxMemoryBytes =
          Objects.requireNonNullElse(
              maxMemoryBytes, Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 4));
      // the breaker over every running search: 60% of the heap (at least one search's limit)
      maxTotalMemoryBytes =
          Objects.requireNonNullElse(
              maxTotalMemoryBytes,
              Math.max(maxMemoryBytes, (long) (Runtime.getRuntime().maxMemory() * 0.6)));
      maxConcurrentJobs =
          Objects.requireNonNullElse(
              maxConcurrentJobs, Math.max(2, Runtime.getRuntime().availableProcessors()));
      maxJobs = Objects.requireNonNullElse(maxJobs, 1000);
      queueOverQuota = Objects.requireNonNullElse(queueOverQuota, false);
      maxJobTtlSeconds = Objects.requireNonNullElse(maxJobTtlSeconds, DEFAULT_MAX_JOB_TTL_SECONDS);
      // without its own setting, the default TTL fits under a smaller maximum
      jobTtlSeconds = Objects.requireNonNullElse(jobTtlSeconds, Math.min(600, maxJobTtlSeconds));
      defaultEarliest = Objects.requireNonNullElse(defaultEarliest, "");
      maxResultRows = Objects.requireNonNullElse(maxResultRows, 1_000_000L);
      maxTimeSeconds = Objects.requireNonNullElse(maxTimeSeconds, 600);
      SearchSettings.check(
          maxMemoryBytes,
          maxTotalMemoryBytes,
          maxConcurrentJobs,
          maxJobs,
          jobTtlSeconds,
          maxJobTtlSeconds,
          maxResultRows,
          maxTimeSeconds);
    }
  }

  /**
   * A search macro as Splunk's {@code macros.conf} stanza: its definition, with {@code $arg$} for
   * each of {@code args}. Its key in {@code search.macros} is {@code name} or {@code name(n)}.
   */
  public record MacroSettings(
      @JsonProperty("definition") String definition, @JsonProperty("args") List<String> args) {
    public MacroSettings {
      if (definition == null) {
        throw new IllegalArgumentException("a search macro needs a definition");
      }
      args = args == null ? List.of() : List.copyOf(args);
    }
  }

  /**
   * A saved search as Splunk's {@code savedsearches.conf} stanza: its query, a description and the
   * time range a dispatch without one uses ({@code dispatch.earliest_time}, {@code
   * dispatch.latest_time}). Its key in {@code search.savedSearches} is its name.
   */
  public record SavedSearchSettings(
      @JsonProperty("search") String search,
      @JsonProperty("description") String description,
      @JsonProperty("earliest") String earliest,
      @JsonProperty("latest") String latest) {
    public SavedSearchSettings {
      if (search == null || search.isBlank()) {
        throw new IllegalArgumentException("a saved search needs a search");
      }
    }
  }

  /**
   * How indexes are stored: the journal compression for new segments ({@code zstd}, {@code lz4},
   * {@code none}), how often buffered events are committed to segments (the write-ahead log holds
   * them until then), when the hot bucket rolls to warm, the layout of new event buckets ({@code
   * blocks}, the default, or {@code events}), how many events a new block holds at most ({@code
   * blockEvents}), and per-index overrides and retention.
   */
  public record Storage(
      @JsonProperty("journalCompression") String journalCompression,
      @JsonProperty("commitIntervalSeconds") Integer commitIntervalSeconds,
      @JsonProperty("maxBucketEvents") Long maxBucketEvents,
      @JsonProperty("maxHotBucketAgeHours") Integer maxHotBucketAgeHours,
      @JsonProperty("format") String format,
      @JsonProperty("indexes") java.util.Map<String, IndexStorage> indexes,
      @JsonProperty("blockEvents") Integer blockEvents) {
    /** The layout of new event buckets when neither the index nor the storage section names one. */
    public static final io.quarry.codecs.store.BucketFormat DEFAULT_FORMAT =
        io.quarry.codecs.store.BucketFormat.BLOCKS;

    public Storage {
      journalCompression = Objects.requireNonNullElse(journalCompression, "zstd");
      format = Objects.requireNonNullElse(format, DEFAULT_FORMAT.configName());
      commitIntervalSeconds = Objects.requireNonNullElse(commitIntervalSeconds, 10);
      maxBucketEvents = Objects.requireNonNullElse(maxBucketEvents, 10_000_000L);
      blockEvents = Objects.requireNonNullElse(blockEvents, IndexOptions.DEFAULT_BLOCK_EVENTS);
      maxHotBucketAgeHours = Objects.requireNonNullElse(maxHotBucketAgeHours, 24);
      StorageSettings.check(
          journalCompression,
          format,
          commitIntervalSeconds,
          maxBucketEvents,
          blockEvents,
          maxHotBucketAgeHours);
      indexes = indexes == null ? java.util.Map.of() : java.util.Map.copyOf(indexes);
      StorageSettings.checkIndexes(indexes);
    }

    /** Whether {@code index} is declared {@code datatype: metric}. */
    public boolean isMetric(String index) {
      IndexStorage own = indexes.get(index);
      return own != null && own.datatype().equals(IndexStorage.METRIC);
    }

    /** The options of a metric index: its bucket size, merges and retention. */
    public io.quarry.codecs.metricstore.MetricIndexOptions metricOptions(String index) {
      return StorageSettings.metricOptions(indexes.get(index));
    }

    /** The storage options of one index. */
    public IndexOptions options(String index) {
      return StorageSettings.options(this, index);
    }
  }

  /**
   * Per-index storage overrides, retention (whole buckets are deleted, oldest first) and the types
   * of index-time fields ({@code keyword}, the default, {@code long} or {@code double}).
   */
  public record IndexStorage(
      @JsonProperty("journalCompression") String journalCompression,
      @JsonProperty("maxAgeDays") Integer maxAgeDays,
      @JsonProperty("maxTotalBytes") Long maxTotalBytes,
      @JsonProperty("fields") java.util.Map<String, String> fields,
      @JsonProperty("datatype") String datatype,
      @JsonProperty("maxBucketPoints") Long maxBucketPoints,
      @JsonProperty("mergeFactor") Integer mergeFactor,
      @JsonProperty("maxMergedPoints") Long maxMergedPoints,
      @JsonProperty("format") String format) {
    /** Splunk's {@code datatype = metric} in indexes.conf: the index holds metric data points. */
    public static final String METRIC = "metric";

    /**
     * The layout this index names for its new buckets ({@code blocks} or {@code events}); without
     * one, {@code storage.format}'s ({@link Storage#DEFAULT_FORMAT} unless set).
     *
     * @throws IllegalArgumentException for any other name
     */
    public io.quarry.codecs.store.BucketFormat bucketFormat() {
      return format == null
          ? Storage.DEFAULT_FORMAT
          : io.quarry.codecs.store.BucketFormat.fromName(format);
    }

    public IndexStorage {
      datatype = Objects.requireNonNullElse(datatype, "event");
      StorageSettings.checkDatatype(datatype, maxBucketPoints, mergeFactor, maxMergedPoints);
      fields = fields == null ? java.util.Map.of() : java.util.Map.copyOf(fields);
      StorageSettings.checkIndexStorage(fields, journalCompression, maxAgeDays, maxTotalBytes);
    }

    /** The declared field types; an unknown type name is an error naming the field. */
    public java.util.Map<String, IndexedFieldType> fieldTypes() {
      return StorageSettings.fieldTypes(fields);
    }
  }
}
