package io.quarry.server;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.BucketDirectories;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.audit.AuditEvent;
import io.quarry.server.audit.AuditLog;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.auth.Secrets;
import io.quarry.server.config.ConfigException;
import io.quarry.server.config.HecToken;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.http.HttpServer;
import io.quarry.server.http.Router;
import io.quarry.server.ingest.IngestGate;
import io.quarry.server.ingest.IngestService;
import io.quarry.server.ingest.InternalLog;
import io.quarry.server.jobs.JobManager;
import io.quarry.server.lookups.LookupStore;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.search.SearchService;
import io.quarry.server.sourcetype.Sourcetypes;
import io.quarry.server.tls.ServerTls;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/** A running Quarry node. */
public final class QuarryServer implements Closeable {
  private static final Logger LOG = Logger.getLogger(QuarryServer.class.getName());

  /** Where the generated admin password lives, relative to the data directory. */
  public static final String ADMIN_PASSWORD_FILE = ".admin-password";

  /** Where the generated HEC token lives, relative to the data directory. */
  public static final String HEC_TOKEN_FILE = ".hec-token";

  private final Path dataDirectory;
  private final EventStore store;
  private final io.quarry.codecs.metricstore.MetricStore metricStore;
  private final ServerMetrics metrics;
  private final IngestService ingest;
  private final InternalLog internalLog;
  private final AuditLog auditLog;
  private final SearchService search;
  private final JobManager jobs;
  private final Router router;

  /** Search jobs that may wait for a slot before new ones get 503. */
  static final int JOB_QUEUE = 100;

  private final HttpServer http;
  private final ServerTls tls;
  private final Secrets.Secret adminPassword;
  private final List<HecToken> hecTokens;
  private final Secrets.Secret generatedHecToken;
  private final AtomicBoolean ready;

  private QuarryServer(
      Path dataDirectory,
      EventStore store,
      io.quarry.codecs.metricstore.MetricStore metricStore,
      ServerMetrics metrics,
      IngestService ingest,
      SearchService search,
      JobManager jobs,
      Router router,
      HttpServer http,
      ServerTls tls,
      Secrets.Secret adminPassword,
      List<HecToken> hecTokens,
      Secrets.Secret generatedHecToken,
      InternalLog internalLog,
      AuditLog auditLog,
      AtomicBoolean ready) {
    this.internalLog = internalLog;
    this.auditLog = auditLog;
    this.dataDirectory = dataDirectory;
    this.store = store;
    this.metricStore = metricStore;
    this.metrics = metrics;
    this.ingest = ingest;
    this.search = search;
    this.jobs = jobs;
    this.router = router;
    this.http = http;
    this.tls = tls;
    this.adminPassword = adminPassword;
    this.hecTokens = hecTokens;
    this.generatedHecToken = generatedHecToken;
    this.ready = ready;
  }

  public static QuarryServer start(QuarryConfig config, Clock clock)
      throws IOException, InterruptedException {
    return start(config, clock, List.of());
  }

  /**
   * As above, with {@code plugins} loaded as if they were in the plugins directory (the plugin test
   * kit runs a plugin from its class path this way).
   */
  public static QuarryServer start(
      QuarryConfig config, Clock clock, List<io.quarry.plugin.api.QuarryPlugin> plugins)
      throws IOException, InterruptedException {
    return start(config, clock, plugins, index -> io.quarry.codecs.store.BucketDirectories.DEFAULT);
  }

  /**
   * As above, each event index's buckets opened by {@code directories} (given the index's name):
   * for tests that fail one index's disk on a real server ({@code
   * TestServers.startWithDirectories}).
   */
  static QuarryServer start(
      QuarryConfig config,
      Clock clock,
      List<io.quarry.plugin.api.QuarryPlugin> plugins,
      java.util.function.Function<String, BucketDirectories> directories)
      throws IOException, InterruptedException {
    requireNonNull(config, "config is null");
    Path dataDirectory = Path.of(config.dataDir()).toAbsolutePath().normalize();
    String plaintextRefusal = config.server().plaintextRefusal();
    if (plaintextRefusal != null) {
      throw new ConfigException(plaintextRefusal);
    }
    if (!config.server().tls().enabled() && config.server().tls().certificate() != null) {
      LOG.warning(
          "server.tls.certificate is set but server.tls.enabled is false: serving plain HTTP");
    }
    Secrets.privateDirectory(dataDirectory);
    ServerTls tls = ServerTls.configure(config.server(), dataDirectory);
    StartCredentials credentials = StartCredentials.resolve(config, dataDirectory);
    Secrets.Secret adminPassword = credentials.adminPassword();
    List<HecToken> hecTokens = credentials.hecTokens();
    Secrets.Secret generatedHecToken = credentials.generatedHecToken();

    Sourcetypes sourcetypes = config.compiledSourcetypes();
    LookupStore lookups = new LookupStore(dataDirectory.resolve("lookups"));
    NodeStores stores = NodeStores.open(config, dataDirectory, sourcetypes, clock, directories);
    EventStore store = stores.events();
    io.quarry.codecs.metricstore.MetricStore metricStore = stores.metrics();
    ServerMetrics metrics = null;
    AtomicBoolean ready = new AtomicBoolean();
    InternalLog internalLog = null;
    AuditLog auditLog = null;
    JobManager jobs = null;
    try {
      io.quarry.server.metricindex.MetricIngest metricIngest =
          new io.quarry.server.metricindex.MetricIngest(metricStore);
      metrics = new ServerMetrics();
      internalLog = InternalLog.start(store, hostName());
      auditLog = AuditLog.start(store, hostName());
      IngestService ingest =
          new IngestService(
              store,
              metrics,
              sourcetypes,
              new IngestGate(config.ingest().pipelines(), config.ingest().maxQueuedBytes()));
      io.quarry.server.plugins.PluginManager pluginManager =
          io.quarry.server.plugins.PluginManager.load(Path.of(config.plugins().dir()), plugins);
      io.quarry.server.macros.MacroStore macros =
          new io.quarry.server.macros.MacroStore(
              dataDirectory.resolve("macros.json"), config.search().macros());
      io.quarry.server.saved.SavedSearchStore savedSearches =
          new io.quarry.server.saved.SavedSearchStore(
              dataDirectory.resolve("savedsearches.json"), config.search().savedSearches());
      SearchService search =
          new SearchService(
              store,
              metricStore,
              sourcetypes,
              lookups,
              metrics,
              clock,
              config.search().maxResultRows(),
              Duration.ofSeconds(config.search().maxTimeSeconds()),
              pluginManager.registry(),
              config.search().maxMemoryBytes(),
              macros,
              savedSearches,
              config.search().maxTotalMemoryBytes(),
              ingest,
              hostName());
      Authenticator authenticator =
          new Authenticator(adminPassword.value(), config.auth(), hecTokens, auditLog);
      io.quarry.server.auth.UserDirectory users =
          io.quarry.server.auth.UserDirectory.open(
              dataDirectory.resolve("users.json"),
              config.auth(),
              io.quarry.server.auth.RoleDirectory.open(
                  dataDirectory.resolve("roles.json"), config.auth()),
              authenticator);
      auditLog.record(
          AuditEvent.of(java.time.Instant.now(), "-", "server start", "succeeded")
              .with("version", Version.current())
              .with(
                  "users", // the configuration's and those defined over REST (users.json)
                  String.join(
                      ",",
                      users.list().stream()
                          .filter(user -> !user.name().equals(Authenticator.ADMIN_USER))
                          .map(user -> user.name() + ":" + String.join("+", user.roles()))
                          .toList()))
              .with("roles", String.join(",", users.roles().keySet())));
      List<String> plainText = Authenticator.plainTextPasswords(config.auth());
      if (!plainText.isEmpty()) {
        LOG.warning(
            "auth.users: the password of "
                + String.join(", ", plainText)
                + " is plain text in the configuration; replace it with the hash that"
                + " `quarry passwd-hash` prints (PBKDF2, read from standard input)");
      }
      jobs =
          new JobManager(
              search,
              clock,
              config.search().maxConcurrentJobs(),
              JOB_QUEUE,
              config.search().maxJobs(),
              Duration.ofSeconds(config.search().jobTtlSeconds()),
              Duration.ofSeconds(config.search().maxJobTtlSeconds()),
              config.search().queueOverQuota());
      metrics.searchJobs(jobs::count);
      metrics.ingestGate(ingest.gate()::busyPipelines, ingest.gate()::queuedBytes);
      Router router =
          new NodeRoutes(
                  authenticator,
                  store,
                  metricStore,
                  metrics,
                  ready::get,
                  ingest,
                  metricIngest,
                  search,
                  jobs,
                  sourcetypes,
                  lookups,
                  macros,
                  savedSearches,
                  users,
                  pluginManager,
                  hostName(),
                  clock)
              .router();
      metrics.quarantinedBuckets(
          () ->
              store.indexNames().stream()
                  .mapToLong(i -> store.index(i).quarantinedBuckets())
                  .sum());
      metrics.fastSegmentsWaiting(
          () ->
              store.indexNames().stream()
                  .mapToLong(i -> store.index(i).compaction().waitingSegments())
                  .sum());
      HttpServer http =
          HttpServer.start(config.server(), router, metrics, tls == null ? null : tls.context());
      ready.set(true);
      LOG.info(
          "Quarry "
              + Version.current()
              + " listening on "
              + url(tls != null, http)
              + (tls == null ? "" : " (TLS certificate SHA-256 " + tls.fingerprint() + ")")
              + ", data in "
              + dataDirectory
              + ", key=value scan "
              + io.quarry.server.sourcetype.KeyPlaces.byteScan()
              + ", term classifier "
              + io.quarry.codecs.tokens.TermSet.classifier());
      return new QuarryServer(
          dataDirectory,
          store,
          metricStore,
          metrics,
          ingest,
          search,
          jobs,
          router,
          http,
          tls,
          adminPassword,
          hecTokens,
          generatedHecToken,
          internalLog,
          auditLog,
          ready);
    } catch (IOException | InterruptedException | RuntimeException e) {
      FailedStart.close(e, jobs, auditLog, internalLog, metrics, metricStore, store);
      throw e;
    }
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }

  public int port() {
    return http.port();
  }

  /**
   * The base URL clients use, e.g. {@code http://127.0.0.1:8088}, or {@code https://…} with TLS.
   */
  public String url() {
    return url(tls != null, http);
  }

  private static String url(boolean secure, HttpServer http) {
    String host = http.host();
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("0:0:0:0:0:0:0:0")) {
      host = "127.0.0.1";
    }
    return (secure ? "https://" : "http://")
        + (host.contains(":") ? "[" + host + "]" : host)
        + ":"
        + http.port();
  }

  /** The TLS of the HTTP port, or null when it serves plain HTTP. */
  public ServerTls tls() {
    return tls;
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  public IngestService ingest() {
    return ingest;
  }

  /** Every route the server answers (for the OpenAPI check). */
  public java.util.Map<String, java.util.Set<String>> routes() {
    return router.routes();
  }

  public SearchService search() {
    return search;
  }

  public Secrets.Secret adminPassword() {
    return adminPassword;
  }

  /** The HEC token generated into the data directory, when no token was configured; else null. */
  public Secrets.Secret generatedHecToken() {
    return generatedHecToken;
  }

  public List<HecToken> hecTokens() {
    return hecTokens;
  }

  @Override
  public void close() throws IOException {
    ready.set(false);
    try {
      http.close();
    } finally {
      jobs.close();
      search.close();
      auditLog.record(
          AuditEvent.of(java.time.Instant.now(), "-", "server stop", "succeeded")
              .with("version", Version.current()));
      auditLog.close();
      internalLog.close();
      metrics.close();
      try {
        metricStore.close();
      } finally {
        store.close();
      }
    }
  }
}
