package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.parser.Parser;
import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.plan.SearchPlan;
import io.quarry.ql.plan.SearchPlanner;
import io.quarry.ql.plan.SubsearchExpander;
import io.quarry.ql.time.TimeModifiers;
import io.quarry.server.auth.Access;
import io.quarry.server.config.Role;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * From query text to a {@link SearchPlan} a user may run: macros and saved searches expanded, the
 * subsearches run and spliced in, the job's time range, the plan restricted to the indexes the user
 * may read (event or metric) and filtered by their roles' search filter, each {@code mstats
 * append=true} bound to what it reads, each {@code collect} bound to its index's writer once the
 * user's right to write it is checked ({@link SearchWrites}: also what a read-only search may not
 * run), and lookup tables checked to exist.
 */
final class SearchPlanning {
  private final SearchService service;
  private final Parser parser;
  private final java.util.function.Supplier<io.quarry.ql.parser.SavedSearches> savedSearches;
  private final EventStore store;
  private final io.quarry.server.search.metric.MetricSearch metricSearch;
  private final io.quarry.server.lookups.LookupStore lookups;
  private final Clock clock;
  private final long maxMemory;
  private final io.quarry.plugin.api.data.MemoryAccount breaker;
  private final SearchWrites writes;

  /**
   * Planning for {@code service}, which runs the subsearches; their rows count on an account of
   * {@code maxMemory} bytes under {@code breaker} (null: none) until they are spliced in; {@code
   * collect} writes through {@code ingest}, its events' host {@code host} unless it names one, as a
   * sourcetype of {@code sourcetypes} that reads its escaped pairs back ({@link SearchWrites}).
   */
  SearchPlanning(
      SearchService service,
      Parser parser,
      java.util.function.Supplier<io.quarry.ql.parser.SavedSearches> savedSearches,
      EventStore store,
      io.quarry.server.search.metric.MetricSearch metricSearch,
      io.quarry.server.lookups.LookupStore lookups,
      Clock clock,
      long maxMemory,
      io.quarry.plugin.api.data.MemoryAccount breaker,
      io.quarry.server.ingest.IngestService ingest,
      io.quarry.server.sourcetype.Sourcetypes sourcetypes,
      String host) {
    this.service = requireNonNull(service, "service is null");
    this.parser = requireNonNull(parser, "parser is null");
    this.savedSearches = requireNonNull(savedSearches, "savedSearches is null");
    this.store = requireNonNull(store, "store is null");
    this.metricSearch = requireNonNull(metricSearch, "metricSearch is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
    this.clock = requireNonNull(clock, "clock is null");
    this.maxMemory = maxMemory;
    this.breaker = breaker;
    this.writes =
        new SearchWrites(
            text -> parser.parseExpandedQuery(expand(text)), ingest, sourcetypes, host);
  }

  /** {@link SearchService#checkSyntax}: parses the expanded query, nothing more. */
  void checkSyntax(String query) {
    parser.parseExpandedQuery(expand(query));
  }

  /** {@link SearchService#expand}: macros, then leading {@code savedsearch} commands. */
  String expand(String query) {
    return savedSearches.get().expand(parser.expand(query), parser::expand);
  }

  /** {@link SearchService#writingCommand}. */
  String writingCommand(String query) {
    return writes.writingCommand(query);
  }

  /** {@link SearchService#plan(String, String, String, Access, boolean, boolean)}. */
  SearchPlan plan(
      String query,
      String earliest,
      String latest,
      Access access,
      boolean writeNothing,
      boolean readOnly) {
    Query parsed = parser.parseExpandedQuery(expand(query));
    if (readOnly) { // the query as expanded now: a macro may have changed since a route checked it
      SearchWrites.refuseWriting(writes.writingCommand(parsed));
    }
    // every collect, the subsearches' too, may write its index before any subsearch runs; what
    // else can refuse the search is checked before too, so a refused search writes nothing
    writes.checkWrites(parsed, access);
    checkLookups(parsed, query, access, true);
    Instant now = clock.instant();
    long earliestMicros = jobTime(query, earliest, "earliest_time", now, Long.MIN_VALUE);
    long latestMicros = jobTime(query, latest, "latest_time", now, Long.MAX_VALUE);
    SubsearchExpander.Expanded subsearches = null;
    io.quarry.ql.plan.Collected collected = io.quarry.ql.plan.Collected.NONE;
    if (SubsearchExpander.hasSubsearches(parsed)) {
      // the subsearches' rows count against the breaker over all searches until they are spliced
      // into the query
      try (SearchSubsearchRunner runner =
          new SearchSubsearchRunner(
              service,
              parsed.text(),
              earliest,
              latest,
              access,
              writeNothing,
              readOnly,
              maxMemory,
              breaker)) {
        subsearches = SubsearchExpander.expand(parsed, parser::parseExpandedQuery, runner);
        collected = runner.collectedSoFar(); // map's searches have not run yet
      }
      SearchWrites.refuseSplicedWriters(parsed, subsearches.query());
      parsed = writes.readOnlyMaps(subsearches.query());
    }
    parsed = writes.bindWriters(parsed, access, writeNothing);
    if (readOnly) { // nothing that writes is left after the subsearches were spliced in
      SearchWrites.refuseWriting(
          SearchWrites.writers(parsed).stream().findFirst().map(Command::name).orElse(null));
    }
    SearchPlan plan =
        new SearchPlanner(now, ZoneOffset.UTC)
            .plan(parsed, earliestMicros, latestMicros, access.indexesDefault());
    checkLookups(parsed, query, access, false); // those a subsearch's result spliced in
    plan = restrict(plan, access);
    plan = bindMetricAppends(plan, parsed.text(), now, earliestMicros, latestMicros, access);
    if (subsearches != null) {
      plan = plan.withSubsearches(subsearches.text(), subsearches.messages(), collected);
    }
    return plan;
  }

  /**
   * Checks that the user may run each {@code outputlookup} ({@code edit_lookups}: 403) and that the
   * table of each {@code lookup} and {@code inputlookup} exists (a parse error of {@code text}), in
   * the query and, with {@code subsearches}, in its subsearches, not run.
   */
  private void checkLookups(Query parsed, String text, Access access, boolean subsearches) {
    for (Command command : parsed.commands()) {
      if (command instanceof io.quarry.ql.ast.OutputLookupCommand) {
        access.require(Role.EDIT_LOOKUPS, "outputlookup");
      }
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
            text,
            command.position(),
            table,
            "the name of an uploaded lookup table");
      }
    }
    if (subsearches) {
      for (io.quarry.ql.ast.Subsearch subsearch : SubsearchExpander.subsearches(parsed)) {
        try {
          checkLookups(
              parser.parseExpandedQuery(expand(subsearch.text())), subsearch.text(), access, true);
        } catch (QueryParseException e) { // named as the subsearch's run names its failure
          throw new QueryParseException(
              subsearch.describe() + ": " + e.getMessage(),
              text,
              subsearch.position(),
              "[",
              e.expected());
        }
      }
    }
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
        plan.indexedFieldsOnly(),
        plan.subsearchesCollected());
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
    // one that does not exist is reported when the search runs
    return readable(plan, access, pattern -> null, store::resolve);
  }

  /**
   * A metric command's plan reading the metric indexes its patterns name that {@code access} may
   * read; a named event index, or one that does not exist, is left out with a message saying so.
   */
  private SearchPlan restrictMetric(SearchPlan plan, Access access) {
    return readable(
        plan,
        access,
        pattern ->
            metricSearch.isMetricIndex(pattern)
                ? null
                : store.hasIndex(pattern)
                    ? "index '"
                        + pattern
                        + "' is an event index: "
                        + plan.generator().get().name()
                        + " reads metric indexes (datatype: metric)"
                    : "index '" + pattern + "' does not exist",
        metricSearch.store()::resolve);
  }

  /**
   * The plan reading the indexes its patterns name that {@code access} may read, filtered by its
   * search filter: a named index it may not read, or one {@code refusal} refuses (a message; null:
   * none), is left out with a message saying so; a wildcard pattern becomes the readable indexes
   * {@code resolve} finds.
   */
  private SearchPlan readable(
      SearchPlan plan,
      Access access,
      java.util.function.Function<String, String> refusal,
      java.util.function.Function<List<String>, List<String>> resolve) {
    List<String> readable = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    for (String pattern : plan.indexPatterns()) {
      if (!pattern.contains("*")) {
        String refused =
            access.mayRead(pattern)
                ? refusal.apply(pattern)
                : "index '" + pattern + "' is not searchable by user " + access.user();
        if (refused != null) {
          messages.add(refused);
        } else if (!readable.contains(pattern)) {
          readable.add(pattern);
        }
        continue;
      }
      for (String name : resolve.apply(List.of(pattern))) {
        if (access.mayRead(name) && !readable.contains(name)) {
          readable.add(name);
        }
      }
    }
    return withSearchFilter(plan.withIndexes(readable, messages), access);
  }

  /** The plan with the search filter of {@code access}'s roles ANDed into its filter. */
  private SearchPlan withSearchFilter(SearchPlan plan, Access access) {
    if (access.searchFilter().isPresent()) {
      Query parsed = parser.parse("search " + access.searchFilter().get());
      if (parsed.commands().get(0) instanceof io.quarry.ql.ast.SearchCommand search
          && search.expression().isPresent()) {
        return plan.withRequiredFilter(search.expression().get());
      }
    }
    return plan;
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
}
