package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.server.auth.Access;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

/**
 * Parses, plans and runs searches over the event store: the one entry point of the search runtime,
 * which holds the search pool and the limits of every search — its time limit (at most
 * search.maxTimeSeconds), its memory ({@link SearchMemory}: search.maxMemoryBytes, under the
 * breaker over all searches) and the summary line it logs; how each ended is counted by {@link
 * SearchOutcomes}. Planning is {@link SearchPlanning}, running a plan {@link SearchExecution},
 * {@code explain} {@link SearchExplain}, what a search wrote {@link PlanCollected}, and what went
 * wrong becomes an HTTP error in {@link SearchFailures}.
 */
public final class SearchService implements AutoCloseable {
  private static final java.util.logging.Logger LOG =
      java.util.logging.Logger.getLogger(SearchService.class.getName());

  /** Rows per page: of the events a source reads, between stages, of the answer. */
  public static final int PAGE_SIZE = 1024;

  /**
   * The system property that sets another page size (a developer setting, read as each search
   * starts its stages): tests run one search at several page sizes, whose answers must agree — page
   * boundaries are where a page engine's faults hide.
   */
  public static final String PAGE_SIZE_PROPERTY = "quarry.search.pageSize";

  /** The page size of the searches starting now: {@link #PAGE_SIZE_PROPERTY}, else 1,024. */
  public static int pageSize() {
    int size = Integer.getInteger(PAGE_SIZE_PROPERTY, PAGE_SIZE);
    if (size < 1) {
      throw new IllegalArgumentException(PAGE_SIZE_PROPERTY + " must be positive: " + size);
    }
    return size;
  }

  private final SearchOutcomes outcomes;
  private final Duration maxTime;
  private final CommandRegistry registry;
  private final SearchMemory memory;
  private final io.quarry.server.search.metric.MetricSearch metricSearch;
  private final SearchPlanning planning;
  private final SearchExecution execution;
  private final SearchExplain explain;

  /** Batch-mode drivers: one thread per core, shared by all searches. */
  private final ExecutorService searchPool =
      Executors.newFixedThreadPool(
          Runtime.getRuntime().availableProcessors(),
          Thread.ofPlatform().name("quarry-search-", 0).daemon(true).factory());

  // the search pool for work a search hands it from outside the engine (the export route's
  // encoding helpers): measured on the account of the search that hands it over (SearchCpu)
  private final java.util.concurrent.Executor parallel;

  /**
   * A search service over the event indexes of {@code store} and the metric indexes of {@code
   * metricStore}, with the commands of {@code registry} (built-ins and plugins); macros and the
   * leading {@code | savedsearch} commands are expanded from what {@code macros} and {@code
   * savedSearches} give before each query is parsed. The operators of one search may hold {@code
   * maxMemory} bytes (search.maxMemoryBytes) and all running searches and kept job results together
   * {@code maxTotalMemory} (search.maxTotalMemoryBytes; {@code Long.MAX_VALUE}: no breaker); past
   * that the search that asked fails with 503 {@code SEARCH_MEMORY_BREAKER}. {@code collect} writes
   * through {@code ingest}, its events' default host {@code host}.
   */
  public SearchService(
      EventStore store,
      io.quarry.codecs.metricstore.MetricStore metricStore,
      Sourcetypes sourcetypes,
      io.quarry.server.lookups.LookupStore lookups,
      ServerMetrics metrics,
      Clock clock,
      long maxResultRows,
      Duration maxTime,
      CommandRegistry registry,
      long maxMemory,
      java.util.function.Supplier<io.quarry.ql.parser.Macros> macros,
      java.util.function.Supplier<io.quarry.ql.parser.SavedSearches> savedSearches,
      long maxTotalMemory,
      io.quarry.server.ingest.IngestService ingest,
      String host) {
    this.metricSearch =
        new io.quarry.server.search.metric.MetricSearch(
            metricStore, searchPool, Runtime.getRuntime().availableProcessors());
    this.memory = new SearchMemory(maxMemory, maxTotalMemory);
    this.registry = requireNonNull(registry, "registry is null");
    this.outcomes = new SearchOutcomes(metrics);
    this.maxTime = requireNonNull(maxTime, "maxTime is null");
    PhysicalPlanner physical = new PhysicalPlanner(store, lookups);
    this.planning =
        new SearchPlanning(
            this,
            new Parser(registry, macros),
            savedSearches,
            store,
            metricSearch,
            lookups,
            clock,
            maxMemory,
            memory.breaker(),
            ingest,
            sourcetypes,
            host);
    this.execution =
        new SearchExecution(
            store, sourcetypes, lookups, metrics, clock, maxResultRows, metricSearch, physical);
    this.explain = new SearchExplain(store, physical);
    this.parallel = SearchCpu.onCurrent(searchPool);
  }

  /**
   * Whether a plan transforms its events into a table ({@code stats}, {@code top}, {@code
   * timechart}, a transforming plugin command, …): then its results are not events, which is what
   * Splunk's {@code …/events} endpoint tells apart.
   */
  public boolean transforms(SearchPlan plan) {
    for (Command command : plan.pipeline()) {
      if (registry
          .help(command.name())
          .filter(help -> help.kind() == CommandKind.TRANSFORMING)
          .isPresent()) {
        return true;
      }
    }
    return false;
  }

  /**
   * An account for the results a job keeps after its search, under the breaker over all searches
   * (search.maxTotalMemoryBytes), so kept results and running searches together stay under it; null
   * without a breaker.
   */
  public io.quarry.plugin.api.data.MemoryAccount keptResultsAccount() {
    return memory.keptResults();
  }

  /** The commands searches may use. */
  public CommandRegistry registry() {
    return registry;
  }

  /**
   * The search pool (one thread per core), for work a search can split: a response's result lines
   * are encoded on it in parallel while the request thread encodes and sends its own share.
   */
  public java.util.concurrent.Executor parallel() {
    return parallel;
  }

  /** The longest a search may read events (search.maxTimeSeconds). */
  public Duration maxTime() {
    return maxTime;
  }

  /**
   * Checks that a query parses (its macros expanded), without planning it or running its
   * subsearches: for a job that waits before it is planned.
   *
   * @throws QueryParseException naming where it is wrong
   */
  public void checkSyntax(String query) {
    outcomes.refusedWhilePlanned(() -> planning.checkSyntax(query));
  }

  /**
   * The query with its search macros and leading {@code savedsearch} commands expanded: what runs,
   * and what a job shows.
   *
   * @throws QueryParseException for an unknown macro or saved search, a wrong number of arguments
   *     or a cycle
   */
  public String expand(String query) {
    return planning.expand(query);
  }

  /**
   * Parses and plans a query.
   *
   * @param earliest the job's earliest time modifier, or null
   * @param latest the job's latest time modifier, or null
   * @throws QueryParseException naming where the query or a time is wrong
   */
  public SearchPlan plan(String query, String earliest, String latest) {
    return plan(query, earliest, latest, Access.admin());
  }

  /**
   * Parses and plans a query of a user: it reads only indexes the user may search (an index named
   * that they may not is left out with a message, as Splunk leaves it out; {@code *} becomes the
   * readable non-internal indexes; a search naming none reads the roles' default indexes), their
   * roles' search filter is ANDed into it, and {@code outputlookup} needs {@code edit_lookups}.
   *
   * @throws io.quarry.server.http.ApiException 403 for {@code outputlookup} without the capability
   */
  public SearchPlan plan(String query, String earliest, String latest, Access access) {
    return plan(query, earliest, latest, access, false, false);
  }

  /**
   * {@link #plan(String, String, String, Access)}, its {@code collect} commands (its subsearches'
   * too) writing nothing when {@code writeNothing}: for {@code explain}, which runs the subsearches
   * to show the query they make but must not write what they collect; refusing with {@code
   * readOnly} a query that writes (400 {@code SEARCH_WRITES}) as it is planned: its text as
   * expanded then (a macro or saved search changed since a route's {@link #requireReadOnly} is
   * seen), each subsearch's as it runs, and the commands left once the subsearches were spliced in.
   */
  public SearchPlan plan(
      String query,
      String earliest,
      String latest,
      Access access,
      boolean writeNothing,
      boolean readOnly) {
    return outcomes.refusedWhilePlanned(
        () -> planning.plan(query, earliest, latest, access, writeNothing, readOnly));
  }

  /**
   * {@link #plan(String, String, String, Access, boolean, boolean)} for a subsearch: its failure is
   * its outer search's, counted once as that search's.
   */
  SearchPlan planSubsearch(
      String query,
      String earliest,
      String latest,
      Access access,
      boolean writeNothing,
      boolean readOnly) {
    return planning.plan(query, earliest, latest, access, writeNothing, readOnly);
  }

  /**
   * The first command that makes running the query write, or null: a {@code collect}, an {@code
   * outputlookup} or a {@code map} whose search text writes (read with a placeholder for each
   * {@code $field$}; one that does not parse so may write), in the query (its macros and leading
   * saved searches expanded) or one of its subsearches. Decided from the parsed query; no subsearch
   * runs. What must not run a search again (the timeline, the field summary) or unasked (a link)
   * asks this.
   *
   * @throws QueryParseException when the query does not parse
   */
  public String writingCommand(String query) {
    return planning.writingCommand(query);
  }

  /**
   * Refuses a query that writes ({@link #writingCommand}) where {@code where} runs it on the user's
   * behalf: 400 {@code SEARCH_WRITES} naming the command.
   *
   * @throws QueryParseException when the query does not parse
   */
  public void requireReadOnly(String query, String where) {
    String command = writingCommand(query);
    if (command != null) {
      throw SearchFailures.writes(where, command, "run it as a search of its own");
    }
  }

  /**
   * Runs a plan, handing result pages to {@code pages} as they fill; logs what it cost (the query
   * text is for that log line).
   */
  public SearchStats run(String query, SearchPlan plan, Consumer<Page> pages) throws IOException {
    return run(query, plan, maxTime, pages);
  }

  /**
   * As above, stopping the scan after {@code timeLimit} (at most the configured maximum): the
   * answer covers the events read until then and carries a warning.
   */
  public SearchStats run(String query, SearchPlan plan, Duration timeLimit, Consumer<Page> pages)
      throws IOException {
    return run(query, plan, timeLimit, new SearchControl(), pages);
  }

  /**
   * As above, steered by {@code control}: a search job finalizes or cancels through it and reads
   * its progress.
   */
  public SearchStats run(
      String query,
      SearchPlan plan,
      Duration timeLimit,
      SearchControl control,
      Consumer<Page> pages)
      throws IOException {
    return run(query, plan, timeLimit, control, pages, memory.search());
  }

  /**
   * As above, its operators' memory on {@code account} (closed when the search ends): a test hands
   * an account of its own, without the breaker, to see what the search left held when it ended.
   */
  SearchStats run(
      String query,
      SearchPlan plan,
      Duration timeLimit,
      SearchControl control,
      Consumer<Page> pages,
      io.quarry.plugin.api.data.MemoryAccount account)
      throws IOException {
    SearchOutcomes.Running outcome = outcomes.start(control, searchPool);
    try {
      control.limit(timeLimit.compareTo(maxTime) < 0 ? timeLimit : maxTime);
      SearchStats stats;
      // what mstats append=true commands later in the pipeline read, for the inspector's costs
      java.util.concurrent.atomic.AtomicReference<io.quarry.codecs.metricstore.MetricScanStats>
          appended = new java.util.concurrent.atomic.AtomicReference<>();
      try {
        stats =
            execution
                .execute(plan, control, pages, account, appended, outcome.cpu())
                .plusMetricScan(appended.get())
                .withEventsCollected(PlanCollected.events(plan));
      } catch (RuntimeException e) {
        outcome.failing();
        throw SearchFailures.of(query, e);
      }
      stats = outcome.measured(stats);
      if (!control.summaryLoggedLaterAsked()) {
        logSummary(query, stats);
      }
      outcome.completed();
      return stats;
    } catch (IOException | RuntimeException | Error e) {
      outcome.failedWith(e);
      throw e;
    } finally {
      account.close(); // whatever the search's operators still hold leaves the breaker
      outcome.record();
    }
  }

  /** Logs what a search cost (the INFO line {@link #run} logs unless the control defers it). */
  public void logSummary(String query, SearchStats stats) {
    // the source named: a formatter showing it does not walk the stack for it on every search
    LOG.logp(
        java.util.logging.Level.INFO, SearchService.class.getName(), "run", stats.summary(query));
  }

  /**
   * What {@link #run} would do with a plan, without running it: the indexes, the time range, the
   * search filter, the term-index query and whether it is exact, the execution mode, and which
   * commands run on the map side (per segment slice, in parallel) and which after the merge.
   * Expressions and commands are written in SPL ({@link SplText}), as the planner left them ({@code
   * sort -count | head 10} keeps 10 rows: {@code sort 10 -count}); the term-index query is Lucene's
   * text.
   */
  public Map<String, Object> explain(SearchPlan plan) {
    return explain.explain(plan);
  }

  /** Stops the search threads. */
  @Override
  public void close() {
    // not shutdownNow: an interrupt during a hot bucket's refresh (file I/O) would close its
    // writer as a tragedy; running searches have been cancelled or finish
    searchPool.shutdown();
    try {
      if (!searchPool.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
        searchPool.shutdownNow();
      }
    } catch (InterruptedException e) {
      searchPool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
