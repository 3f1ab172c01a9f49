package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.ScanStats;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.ast.WhereCommand;
import io.quarry.ql.command.CommandRegistry;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageCollector;
import io.quarry.ql.exec.StageStats;
import io.quarry.ql.exec.Values;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.ql.plan.SearchPlanner;
import io.quarry.ql.time.TimeModifiers;
import io.quarry.server.auth.Access;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/** Parses, plans and runs searches over the event store. */
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

  private final EventStore store;
  private final Sourcetypes sourcetypes;
  private final io.quarry.server.lookups.LookupStore lookups;
  private final ServerMetrics metrics;
  private final Clock clock;
  private final long maxResultRows;
  private final Duration maxTime;
  private final CommandRegistry registry;
  private final Parser parser;
  private final java.util.function.Supplier<io.quarry.ql.parser.SavedSearches> savedSearches;
  private final long maxMemory;
  private final io.quarry.server.search.metric.MetricSearch metricSearch;

  /** Every running search's memory account reserves here too; null: no breaker. */
  private final io.quarry.plugin.api.data.MemoryAccount breaker;

  static final String BREAKER = "all running searches (search.maxTotalMemoryBytes)";

  /** Batch-mode drivers: one thread per core, shared by all searches. */
  private final ExecutorService searchPool =
      Executors.newFixedThreadPool(
          Runtime.getRuntime().availableProcessors(),
          Thread.ofPlatform().name("quarry-search-", 0).daemon(true).factory());

  /**
   * A search service over the event indexes of {@code store} and the metric indexes of {@code
   * metricStore}, with the commands of {@code registry} (built-ins and plugins); macros and the
   * leading {@code | savedsearch} commands are expanded from what {@code macros} and {@code
   * savedSearches} give before each query is parsed. The operators of one search may hold {@code
   * maxMemory} bytes (search.maxMemoryBytes) and all running searches and kept job results together
   * {@code maxTotalMemory} (search.maxTotalMemoryBytes; {@code Long.MAX_VALUE}: no breaker); past
   * that the search that asked fails with 503 {@code SEARCH_MEMORY_BREAKER}.
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
      long maxTotalMemory) {
    this.metricSearch =
        new io.quarry.server.search.metric.MetricSearch(
            metricStore, searchPool, Runtime.getRuntime().availableProcessors());
    this.breaker =
        maxTotalMemory == Long.MAX_VALUE
            ? null
            : new io.quarry.plugin.api.data.MemoryAccount(BREAKER, maxTotalMemory);
    this.registry = requireNonNull(registry, "registry is null");
    this.parser = new Parser(registry, macros);
    this.savedSearches = requireNonNull(savedSearches, "savedSearches is null");
    this.maxMemory = maxMemory;
    this.store = requireNonNull(store, "store is null");
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.maxResultRows = maxResultRows;
    this.maxTime = requireNonNull(maxTime, "maxTime is null");
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
    return breaker == null
        ? null
        : new io.quarry.plugin.api.data.MemoryAccount("kept job results", Long.MAX_VALUE, breaker);
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
    return searchPool;
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
    parser.parseExpandedQuery(expand(query));
  }

  /**
   * The query with its search macros and leading {@code savedsearch} commands expanded: what runs,
   * and what a job shows.
   *
   * @throws QueryParseException for an unknown macro or saved search, a wrong number of arguments
   *     or a cycle
   */
  public String expand(String query) {
    return savedSearches.get().expand(parser.expand(query), parser::expand);
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
    Query parsed = parser.parseExpandedQuery(expand(query));
    io.quarry.ql.plan.SubsearchExpander.Expanded subsearches = null;
    if (io.quarry.ql.plan.SubsearchExpander.hasSubsearches(parsed)) {
      // the subsearches' rows count against the breaker over all searches until they are spliced
      // into the query
      try (SearchSubsearchRunner runner =
          new SearchSubsearchRunner(
              this, parsed.text(), earliest, latest, access, maxMemory, breaker)) {
        subsearches =
            io.quarry.ql.plan.SubsearchExpander.expand(parsed, parser::parseExpandedQuery, runner);
      }
      parsed = subsearches.query();
    }
    Instant now = clock.instant();
    long earliestMicros = jobTime(query, earliest, "earliest_time", now, Long.MIN_VALUE);
    long latestMicros = jobTime(query, latest, "latest_time", now, Long.MAX_VALUE);
    SearchPlan plan =
        new SearchPlanner(now, ZoneOffset.UTC)
            .plan(parsed, earliestMicros, latestMicros, access.indexesDefault());
    for (Command command : parsed.commands()) {
      if (command instanceof io.quarry.ql.ast.OutputLookupCommand) {
        access.require(QuarryConfig.Role.EDIT_LOOKUPS, "outputlookup");
      }
    }
    plan = restrict(plan, access);
    plan = bindMetricAppends(plan, parsed.text(), now, earliestMicros, latestMicros, access);
    if (subsearches != null) {
      plan = plan.withSubsearches(subsearches.text(), subsearches.messages());
    }
    for (Command command : parsed.commands()) {
      String table =
          switch (command) {
            case io.quarry.ql.ast.LookupCommand lookup -> lookup.table();
            case io.quarry.ql.ast.InputLookupCommand input -> input.table();
            default -> null;
          };
      if (table != null && lookups.table(table) == null) {
        throw new io.quarry.ql.parser.QueryParseException(
            "lookup table '"
                + table
                + "' does not exist; upload it with PUT /api/v1/lookups/"
                + table,
            query,
            command.position(),
            table,
            "the name of an uploaded lookup table");
      }
    }
    return plan;
  }

  /**
   * Binds each {@code mstats append=true} later in the pipeline to what it reads: its where clause
   * planned as a first command's would be, restricted to the metric indexes {@code access} may
   * read; what that leaves out goes to the plan's messages.
   */
  private SearchPlan bindMetricAppends(
      SearchPlan plan,
      String text,
      Instant now,
      long earliestMicros,
      long latestMicros,
      Access access) {
    if (plan.pipeline().stream()
        .noneMatch(c -> c instanceof io.quarry.ql.ast.MstatsCommand m && m.append())) {
      return plan;
    }
    List<Command> pipeline = new ArrayList<>();
    List<String> messages = new ArrayList<>(plan.messages());
    for (Command command : plan.pipeline()) {
      if (command instanceof io.quarry.ql.ast.MstatsCommand mstats && mstats.append()) {
        SearchPlan own =
            restrictMetric(
                new SearchPlanner(now, ZoneOffset.UTC)
                    .plan(
                        new Query(text, List.of(mstats)),
                        earliestMicros,
                        latestMicros,
                        access.indexesDefault()),
                access);
        messages.addAll(own.messages());
        pipeline.add(
            mstats.withScope(
                new io.quarry.ql.ast.MetricAppendScope(
                    own.indexPatterns(), own.earliestMicros(), own.latestMicros(), own.filter())));
      } else {
        pipeline.add(command);
      }
    }
    return new SearchPlan(
        plan.indexPatterns(),
        plan.earliestMicros(),
        plan.latestMicros(),
        plan.filter(),
        pipeline,
        plan.generator(),
        messages,
        plan.expandedQuery(),
        plan.indexedFieldsOnly());
  }

  /** The plan reading only what {@code access} may read, and filtered by its search filter. */
  private SearchPlan restrict(SearchPlan plan, Access access) {
    if (plan.generator().orElse(null) instanceof io.quarry.ql.ast.MetricCommand) {
      return restrictMetric(plan, access);
    }
    if (plan.generator().isPresent()
        && !(plan.generator().get() instanceof io.quarry.ql.ast.DbinspectCommand)) {
      return plan; // reads no index (dbinspect's indexes are restricted as a search's)
    }
    List<String> readable = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    for (String pattern : plan.indexPatterns()) {
      if (!pattern.contains("*")) {
        if (!access.mayRead(pattern)) {
          messages.add("index '" + pattern + "' is not searchable by user " + access.user());
        } else if (!readable.contains(pattern)) {
          readable.add(pattern); // one that does not exist is reported when the search runs
        }
        continue;
      }
      for (String name : store.resolve(List.of(pattern))) {
        if (access.mayRead(name) && !readable.contains(name)) {
          readable.add(name);
        }
      }
    }
    SearchPlan restricted = plan.withIndexes(readable, messages);
    if (access.searchFilter().isPresent()) {
      String filter = access.searchFilter().get();
      Query parsed = parser.parse("search " + filter);
      if (parsed.commands().get(0) instanceof io.quarry.ql.ast.SearchCommand search
          && search.expression().isPresent()) {
        restricted = restricted.withRequiredFilter(search.expression().get());
      }
    }
    return restricted;
  }

  /**
   * A metric command's plan reading the metric indexes its patterns name that {@code access} may
   * read; a named event index, or one that does not exist, is left out with a message saying so.
   */
  private SearchPlan restrictMetric(SearchPlan plan, Access access) {
    List<String> readable = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    for (String pattern : plan.indexPatterns()) {
      if (!pattern.contains("*")) {
        if (!access.mayRead(pattern)) {
          messages.add("index '" + pattern + "' is not searchable by user " + access.user());
        } else if (!metricSearch.isMetricIndex(pattern)) {
          messages.add(
              store.hasIndex(pattern)
                  ? "index '"
                      + pattern
                      + "' is an event index: "
                      + plan.generator().get().name()
                      + " reads metric indexes (datatype: metric)"
                  : "index '" + pattern + "' does not exist");
        } else if (!readable.contains(pattern)) {
          readable.add(pattern);
        }
        continue;
      }
      for (String name : metricSearch.store().resolve(List.of(pattern))) {
        if (access.mayRead(name) && !readable.contains(name)) {
          readable.add(name);
        }
      }
    }
    SearchPlan restricted = plan.withIndexes(readable, messages);
    if (access.searchFilter().isPresent()) {
      Query parsed = parser.parse("search " + access.searchFilter().get());
      if (parsed.commands().get(0) instanceof io.quarry.ql.ast.SearchCommand search
          && search.expression().isPresent()) {
        restricted = restricted.withRequiredFilter(search.expression().get());
      }
    }
    return restricted;
  }

  private static long jobTime(String query, String value, String name, Instant now, long absent) {
    if (value == null || value.isBlank()) {
      return absent;
    }
    try {
      return TimeModifiers.resolveMicros(value, now, ZoneOffset.UTC);
    } catch (IllegalArgumentException e) {
      throw new QueryParseException(
          name + ": " + e.getMessage(), query, Position.START, value, "a time modifier");
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
    long started = System.nanoTime();
    String outcome = "failed";
    io.quarry.plugin.api.data.MemoryAccount memory =
        new io.quarry.plugin.api.data.MemoryAccount(
            "search (search.maxMemoryBytes)", maxMemory, breaker);
    try {
      control.limit(timeLimit.compareTo(maxTime) < 0 ? timeLimit : maxTime);
      SearchStats stats;
      // what mstats append=true commands later in the pipeline read, for the inspector's costs
      java.util.concurrent.atomic.AtomicReference<io.quarry.codecs.metricstore.MetricScanStats>
          appended = new java.util.concurrent.atomic.AtomicReference<>();
      try {
        stats = execute(plan, control, pages, memory, appended).plusMetricScan(appended.get());
      } catch (RuntimeException e) {
        if (control.cancelled()) {
          outcome = "cancelled"; // e.g. its client went away: writing the answer failed
        }
        control.failed(); // batch-mode slices still running stop at their next check
        throw SearchFailures.of(query, e);
      }
      if (!control.summaryLoggedLaterAsked()) {
        logSummary(query, stats);
      }
      outcome = control.cancelled() ? "cancelled" : "completed";
      return stats;
    } finally {
      memory.close(); // whatever the search's operators still hold leaves the breaker
      metrics.searchRun(outcome, Duration.ofNanos(System.nanoTime() - started));
    }
  }

  /** Logs what a search cost (the INFO line {@link #run} logs unless the control defers it). */
  public void logSummary(String query, SearchStats stats) {
    // the source named: a formatter showing it does not walk the stack for it on every search
    LOG.logp(
        java.util.logging.Level.INFO, SearchService.class.getName(), "run", stats.summary(query));
  }

  private SearchStats execute(
      SearchPlan plan,
      SearchControl control,
      Consumer<Page> pages,
      io.quarry.plugin.api.data.MemoryAccount memory,
      java.util.concurrent.atomic.AtomicReference<io.quarry.codecs.metricstore.MetricScanStats>
          appended)
      throws IOException {
    if (plan.generator().orElse(null) instanceof io.quarry.ql.ast.MetricCommand metric) {
      return executeMetric(plan, metric, control, pages, memory, appended);
    }
    long started = System.nanoTime();
    List<String> messages = new ArrayList<>();
    List<String> indexes = store.resolve(plan.indexPatterns());
    for (String pattern : plan.indexPatterns()) {
      if (!pattern.contains("*") && store.resolve(List.of(pattern)).isEmpty()) {
        messages.add(
            metricSearch.isMetricIndex(pattern)
                ? "index '"
                    + pattern
                    + "' is a metric index: search it with | mstats, | mcatalog or | mpreview"
                : "index '" + pattern + "' does not exist");
      }
    }
    messages.addAll(plan.messages());
    messages.addAll(plan.slowPatternMessages());
    LuceneTranslator.Translation translation = translate(plan, indexes);
    PageCollector collector = new PageCollector(pages);
    StageStats stages = new StageStats(plan.pipeline().stream().map(Command::name).toList());
    AtomicLong matched = new AtomicLong();
    int aggregatorAt = batchAggregatorIndex(plan.pipeline());
    List<String> pluginWarnings = java.util.Collections.synchronizedList(new ArrayList<>());
    Evaluator evaluator =
        evaluator(appended)
            .withResources(
                new io.quarry.ql.exec.SearchResources(
                    memory, control::cancelled, pluginWarnings::add, control::shouldStop));
    ScanStats scan;
    if (plan.generator().isPresent()) {
      scan =
          new GeneratorRun(store, lookups)
              .run(
                  plan,
                  new PageBatch.Results(collector, maxResultRows, stages),
                  matched,
                  stages,
                  evaluator,
                  control);
    } else if (aggregatorAt >= 0) {
      scan =
          runBatch(
              plan,
              indexes,
              translation,
              aggregatorAt,
              new PageBatch.Results(collector, maxResultRows, stages),
              matched,
              stages,
              control,
              evaluator);
    } else {
      scan =
          runTimeOrdered(
              plan,
              indexes,
              translation,
              new PageBatch.Results(collector, maxResultRows, stages),
              matched,
              stages,
              control,
              evaluator);
    }
    messages.addAll(pluginWarnings);
    if (control.finalized()) {
      messages.add("search finalized: results cover only the events read until then");
    }
    if (control.stoppedByTimeLimit()) {
      messages.add(
          "search stopped after its time limit of "
              + Values.toText(control.limit().toNanos() / 1e9)
              + " s (max_time, search.maxTimeSeconds); results cover only the events read until"
              + " then");
    }
    metrics.eventsScanned(scan.eventsRead());
    if (collector.rows() >= maxResultRows) {
      messages.add(
          "results truncated at "
              + maxResultRows
              + " rows (search.maxResultRows); narrow the search");
    }
    messages.addAll(scan.warnings());
    SearchStats stats =
        new SearchStats(
            indexes,
            scan.buckets(),
            scan.bucketsSkipped(),
            scan.segments(),
            scan.segmentsSkipped(),
            scan.eventsRead(),
            matched.get(),
            collector.rows(),
            translation.exact() || plan.filter().isEmpty(),
            Duration.ofNanos(System.nanoTime() - started),
            scan.costs(),
            control.extraction(),
            stages.stages(),
            messages,
            java.util.Optional.empty());
    return stats;
  }

  /**
   * A command over metric indexes ({@code mstats}, {@code mcatalog}, {@code mpreview}), run by
   * {@link MetricExecution} with this search's evaluator.
   */
  private SearchStats executeMetric(
      SearchPlan plan,
      io.quarry.ql.ast.MetricCommand metric,
      SearchControl control,
      Consumer<Page> pages,
      io.quarry.plugin.api.data.MemoryAccount memory,
      java.util.concurrent.atomic.AtomicReference<io.quarry.codecs.metricstore.MetricScanStats>
          appended)
      throws IOException {
    // the search's own account: under the breaker over all searches, like an event search's
    List<String> pluginWarnings = java.util.Collections.synchronizedList(new ArrayList<>());
    Evaluator evaluator =
        evaluator(appended)
            .withResources(
                new io.quarry.ql.exec.SearchResources(
                    memory, control::cancelled, pluginWarnings::add, control::shouldStop));
    return new MetricExecution(metricSearch, maxResultRows)
        .execute(plan, metric, control, pages, evaluator, pluginWarnings, memory);
  }

  /**
   * The plan's filter as a term-index query; over indexes that hold blocks, checked per event (a
   * term finds a block, not an event, so nothing about an event is known from the index alone).
   */
  private LuceneTranslator.Translation translate(SearchPlan plan, List<String> indexes) {
    LuceneTranslator.Translation translation =
        plan.filter().map(LuceneTranslator::translate).orElse(LuceneTranslator.Translation.ALL);
    return indexes.stream().anyMatch(name -> store.index(name).holdsBlocks())
        ? translation.perEvent()
        : translation;
  }

  /**
   * Where a pipeline can split into a parallel map side and a final reduce: the index of its first
   * aggregator ({@code stats}, {@code timechart}, {@code chart}, {@code top}, {@code rare}) when
   * only row-local commands ({@code search}, {@code eval}, {@code where}, {@code rex}, {@code
   * lookup}, {@code fields}/{@code table}, {@code rename}, {@code bin} with a span, streaming
   * plugin commands) come before it, else -1; a transforming plugin command is an aggregator. Such
   * pipelines do not need events in time order.
   */
  static int batchAggregatorIndex(List<Command> pipeline) {
    for (int i = 0; i < pipeline.size(); i++) {
      Command command = pipeline.get(i);
      if (command instanceof StatsCommand
          || command instanceof TimechartCommand
          || command instanceof ChartCommand
          || command instanceof TopCommand
          || command instanceof PluginCommand plugin && plugin.kind() == CommandKind.TRANSFORMING) {
        return i;
      }
      if (!(command instanceof SearchCommand
          || command instanceof EvalCommand
          || command instanceof WhereCommand
          || command instanceof RexCommand
          || command instanceof io.quarry.ql.ast.LookupCommand
          || command instanceof io.quarry.ql.ast.ProjectCommand
          || command instanceof io.quarry.ql.ast.RenameCommand
          || command instanceof io.quarry.ql.ast.BinCommand bin && bin.rowLocal()
          || command instanceof PluginCommand plugin && plugin.kind() == CommandKind.STREAMING)) {
        return -1;
      }
    }
    return -1;
  }

  /** A lookup table's columns, null when there is no such table. */
  private List<String> lookupColumns(String table) {
    io.quarry.ql.exec.LookupTable found = lookups.table(table);
    return found == null ? null : found.columns();
  }

  /** Time-ordered mode: one newest-first stream through the whole pipeline. */
  private ScanStats runTimeOrdered(
      SearchPlan plan,
      List<String> indexes,
      LuceneTranslator.Translation translation,
      PageBatch.Results results,
      AtomicLong matched,
      StageStats stages,
      SearchControl control,
      Evaluator evaluator)
      throws IOException {
    TimeOrderedShape onPages =
        TimeOrderedShape.of(plan.pipeline(), pageSize(), this::lookupColumns);
    if (onPages == null) {
      throw SearchFailures.notSupported(plan.pipeline());
    }
    if (onPages.listing() && control.everyEventFieldAsked()) {
      // a subsearch's events carry their search-time fields, a renamed row's too
      onPages = onPages.withEveryField();
    }
    boolean exact = plan.filter().isEmpty() || translation.exact();
    String deduplicated = exact ? dedupFieldFirst(plan.pipeline()) : null;
    return TimeOrderedPages.run(
        onPages,
        plan.pipeline(),
        sourcetypes,
        control,
        exact ? null : EventFilter.of(plan.filter().get()),
        plan.indexedFieldsOnly(),
        matched,
        stages,
        evaluator,
        results,
        deduplicated,
        (visitor, reader) ->
            store.scan(
                indexes,
                translation.query(),
                plan.earliestMicros(),
                plan.latestMicros(),
                visitor,
                reader));
  }

  /**
   * The field of a leading {@code dedup f} that keeps one event per value in arrival order (no
   * count above 1, {@code consecutive} or {@code sortby}), whose repeats a scan may skip unread;
   * null otherwise.
   */
  static String dedupFieldFirst(List<Command> pipeline) {
    if (!pipeline.isEmpty()
        && pipeline.get(0) instanceof io.quarry.ql.ast.DedupCommand dedup
        && dedup.count() == 1
        && dedup.fields().size() == 1
        && !dedup.consecutive()
        && dedup.sortBy().isEmpty()) {
      return dedup.fields().get(0);
    }
    return null;
  }

  /**
   * Batch mode: the filters and a partial {@code stats} run per segment slice on the search pool;
   * the partials merge into one final {@code stats}, which feeds the rest of the pipeline.
   */
  private ScanStats runBatch(
      SearchPlan plan,
      List<String> indexes,
      LuceneTranslator.Translation translation,
      int aggregatorAt,
      PageBatch.Results results,
      AtomicLong matched,
      StageStats stages,
      SearchControl control,
      Evaluator evaluator)
      throws IOException {
    List<Command> pipeline = plan.pipeline();
    BatchPlan batch = batchPlan(plan, indexes, translation, aggregatorAt);
    if (batch.runsTimeOrdered()) {
      return runTimeOrdered(
          plan, indexes, translation, results, matched, stages, control, evaluator);
    }
    PageBatch.Scan scan =
        slices ->
            store.pullParallel(
                indexes,
                translation.query(),
                plan.earliestMicros(),
                plan.latestMicros(),
                slices,
                searchPool);
    boolean checked = plan.filter().isPresent() && !translation.exact();
    return new PageBatch(
            sourcetypes,
            control,
            checked ? EventFilter.of(plan.filter().get()) : null,
            plan.indexedFieldsOnly(),
            matched,
            stages,
            evaluator,
            pageSize())
        .run(
            batch,
            pipeline,
            results,
            scan,
            (countedUpFront, counted, slices) ->
                store.pullParallelCounting(
                    indexes,
                    translation.query(),
                    countedUpFront,
                    plan.earliestMicros(),
                    plan.latestMicros(),
                    counted,
                    slices,
                    searchPool));
  }

  /** The batch plan of a search whose command {@code aggregatorAt} is its aggregation. */
  private BatchPlan batchPlan(
      SearchPlan plan,
      List<String> indexes,
      LuceneTranslator.Translation translation,
      int aggregatorAt) {
    return BatchPlan.of(
        plan,
        translation,
        aggregatorAt,
        indexes.stream().anyMatch(name -> !store.index(name).holdsBlocks()),
        blockCondition(plan, indexes));
  }

  /**
   * The filter as the blocks of {@code indexes} decide it ({@link BlockCondition}), knowing which
   * fields they hold value counts of; null when no index holds blocks or it cannot be decided.
   */
  private BlockCondition blockCondition(SearchPlan plan, List<String> indexes) {
    if (indexes.stream().noneMatch(name -> store.index(name).holdsBlocks())) {
      return null;
    }
    BlockCondition condition = BlockCondition.of(plan.filter());
    return condition == null
        ? null
        : condition.countedFields(
            field -> anyBlocks(indexes, field, io.quarry.codecs.store.BlockValueCounts::anyIn),
            field ->
                anyBlocks(indexes, field, io.quarry.codecs.store.BlockValueCounts::anyCodesIn));
  }

  /** Whether some block bucket of the indexes has {@code what} of {@code field}. */
  private boolean anyBlocks(List<String> indexes, String field, BlockFieldProbe what) {
    return indexes.stream()
        .anyMatch(
            name -> {
              try {
                return what.test(store.index(name), field);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
  }

  /** A question about the block buckets of an index store. */
  @FunctionalInterface
  private interface BlockFieldProbe {
    boolean test(io.quarry.codecs.store.IndexStore store, String field) throws IOException;
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
    Map<String, Object> explain = new LinkedHashMap<>();
    plan.generator().ifPresent(generator -> explain.put("generator", SplText.command(generator)));
    explain.put("indexes", store.resolve(plan.indexPatterns()));
    explain.put("earliest", timeOrNull(plan.earliestMicros(), Long.MIN_VALUE));
    explain.put("latest", timeOrNull(plan.latestMicros(), Long.MAX_VALUE));
    // the first search without its index= and time bounds, which are above
    explain.put("filter", plan.filter().map(SplText::search).orElse(null));
    LuceneTranslator.Translation translation = translate(plan, store.resolve(plan.indexPatterns()));
    explain.put("index_query", translation.query().toString());
    boolean exact = translation.exact() || plan.filter().isEmpty();
    explain.put("exact_index_query", exact);
    // candidates that surely match: counted without reading them when counting is all that follows
    explain.put(
        "sure_index_query",
        exact || translation.sure() == null ? null : translation.sure().toString());
    explain.put("per_event_filter", exact ? null : plan.filter().map(SplText::search).orElse(null));
    List<String> names = plan.pipeline().stream().map(SplText::command).toList();
    int aggregatorAt = batchAggregatorIndex(plan.pipeline());
    BatchPlan batch =
        aggregatorAt >= 0 && plan.generator().isEmpty() // a generator's results run in order
            ? batchPlan(plan, store.resolve(plan.indexPatterns()), translation, aggregatorAt)
            : null;
    if (batch != null && !batch.runsTimeOrdered()) {
      explain.put("mode", "batch");
      List<String> map = new ArrayList<>(names.subList(0, aggregatorAt + 1));
      map.set(aggregatorAt, names.get(aggregatorAt) + " (partial)");
      explain.put("map", map);
      List<String> reduce = new ArrayList<>();
      reduce.add(names.get(aggregatorAt) + " (merge)");
      reduce.addAll(names.subList(aggregatorAt + 1, names.size()));
      explain.put("reduce", reduce);
      explain.putAll(batch.explain(plan));
    } else {
      explain.put("mode", "time-ordered");
      explain.put("pipeline", names);
      long limit = plan.eventLimit();
      explain.put("event_limit", limit == Long.MAX_VALUE ? null : limit);
      explain.put("dedup_skips_seen", exact ? dedupFieldFirst(plan.pipeline()) : null);
      TimeOrderedShape onPages =
          plan.generator().isEmpty()
              ? TimeOrderedShape.of(plan.pipeline(), pageSize(), this::lookupColumns)
              : null;
      if (plan.generator().isEmpty() && onPages == null) {
        throw SearchFailures.notSupported(plan.pipeline()); // as running it would
      }
      explain.put("engine", "pages"); // one engine since session 27; the key stays one release
      if (onPages != null) {
        // an event listing: each event's own fields; every field; or the fields read
        explain.put(
            "page_source",
            onPages.listing() ? "events" : onPages.everyField() ? "every_field" : "fields");
        if (onPages.aggregateAt() >= 0) { // after commands that need time order: one aggregation
          explain.put("page_aggregation", names.get(onPages.aggregateAt()));
        }
        explain.put("page_source_fields", onPages.sourceFields());
        explain.put("page_size", onPages.pageSize());
      }
    }
    return explain;
  }

  private static String timeOrNull(long micros, long unbounded) {
    return micros == unbounded
        ? null
        : java.time.Instant.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000)
            .toString();
  }

  /**
   * Evaluates eval/where with the search's clock (now()) in UTC; what {@code mstats append=true}
   * reads is added up in {@code appended}.
   */
  private Evaluator evaluator(
      java.util.concurrent.atomic.AtomicReference<io.quarry.codecs.metricstore.MetricScanStats>
          appended) {
    return new Evaluator(clock.instant(), ZoneOffset.UTC, lookups, lookups)
        .withRawTermMatcher(RawTerms.MATCHER)
        .withMetricAppend(
            MetricExecution.appender(
                metricSearch,
                scan -> appended.accumulateAndGet(scan, (a, b) -> a == null ? b : a.plus(b))));
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
