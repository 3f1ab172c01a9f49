package io.quarry.server;

import io.quarry.codecs.metricstore.MetricStore;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.auth.Authenticator;
import io.quarry.server.auth.UserDirectory;
import io.quarry.server.hec.HecRoutes;
import io.quarry.server.http.Router;
import io.quarry.server.ingest.IngestService;
import io.quarry.server.jobs.JobManager;
import io.quarry.server.lookups.LookupStore;
import io.quarry.server.macros.MacroStore;
import io.quarry.server.metricindex.MetricIngest;
import io.quarry.server.metricindex.PrometheusImportRoute;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.plugins.PluginManager;
import io.quarry.server.rest.FieldRoutes;
import io.quarry.server.rest.IndexRoutes;
import io.quarry.server.rest.JobRoutes;
import io.quarry.server.rest.LookupRoutes;
import io.quarry.server.rest.MacroRoutes;
import io.quarry.server.rest.PluginRoutes;
import io.quarry.server.rest.SearchExportRoute;
import io.quarry.server.rest.SearchStreamRoute;
import io.quarry.server.rest.SearchWritesRoute;
import io.quarry.server.rest.SourcetypeRoutes;
import io.quarry.server.rest.SplunkIndexRoutes;
import io.quarry.server.rest.SplunkJobRoutes;
import io.quarry.server.rest.SplunkMacroRoutes;
import io.quarry.server.rest.SplunkReceiverRoutes;
import io.quarry.server.rest.SplunkRoleRoutes;
import io.quarry.server.rest.SplunkSavedSearchRoutes;
import io.quarry.server.rest.SplunkServerRoutes;
import io.quarry.server.rest.SplunkUserRoutes;
import io.quarry.server.rest.SystemRoutes;
import io.quarry.server.rest.UiRoutes;
import io.quarry.server.saved.SavedSearchStore;
import io.quarry.server.search.SearchService;
import io.quarry.server.sourcetype.Sourcetypes;
import java.time.Clock;
import java.util.function.BooleanSupplier;

/**
 * Every HTTP route a node answers — the native API, Splunk's REST endpoints, HEC, the UI —
 * registered on one {@link Router} over the node's services ({@link QuarryServer#start} opens them
 * and owns their lifecycle; split out of it in issue 21's mend21, one concept per file).
 *
 * @param ready whether the node is serving (the readiness probe's answer)
 * @param hostName the host the node reports (Splunk's server info, the receivers' default host)
 */
record NodeRoutes(
    Authenticator authenticator,
    EventStore store,
    MetricStore metricStore,
    ServerMetrics metrics,
    BooleanSupplier ready,
    IngestService ingest,
    MetricIngest metricIngest,
    SearchService search,
    JobManager jobs,
    Sourcetypes sourcetypes,
    LookupStore lookups,
    MacroStore macros,
    SavedSearchStore savedSearches,
    UserDirectory users,
    PluginManager plugins,
    String hostName,
    Clock clock) {

  /** A router answering every route. */
  Router router() {
    Router router = new Router();
    new SystemRoutes(store, metrics, ready).register(router);
    new UiRoutes().register(router);
    new HecRoutes(authenticator, ingest, metricIngest, hostName, clock).register(router);
    new PrometheusImportRoute(authenticator, metricIngest, clock).register(router);
    new SearchExportRoute(authenticator, search).register(router);
    new SearchStreamRoute(authenticator, search).register(router);
    JobRoutes jobRoutes = new JobRoutes(authenticator, search, jobs);
    jobRoutes.register(router);
    new SplunkJobRoutes(authenticator, jobRoutes, jobs).register(router);
    new SplunkServerRoutes(authenticator, hostName).register(router);
    new IndexRoutes(authenticator, store, metricStore).register(router);
    new SplunkIndexRoutes(authenticator, store, metricStore).register(router);
    new SplunkReceiverRoutes(authenticator, ingest, hostName, clock).register(router);
    new SourcetypeRoutes(authenticator, sourcetypes).register(router);
    new FieldRoutes(authenticator, search).register(router);
    new SearchWritesRoute(authenticator, search).register(router);
    new LookupRoutes(authenticator, lookups).register(router);
    new MacroRoutes(authenticator, macros).register(router);
    new SplunkMacroRoutes(authenticator, macros).register(router);
    new SplunkUserRoutes(authenticator, users).register(router);
    new SplunkRoleRoutes(authenticator, users).register(router);
    new SplunkSavedSearchRoutes(authenticator, savedSearches, jobRoutes, jobs).register(router);
    new PluginRoutes(authenticator, plugins).register(router);
    return router;
  }
}
