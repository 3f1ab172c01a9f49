package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.Query;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.plan.RunsSearches;
import io.quarry.ql.plan.SubsearchExpander;
import io.quarry.ql.plan.WritesEvents;
import io.quarry.server.auth.Access;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What a search writes, as {@link SearchPlanning} plans it: the command that makes a query write
 * ({@link #writingCommand}, from its parsed text and its subsearches', a {@code map} judged by its
 * search text), the user's right to write each {@code collect}'s index checked before any subsearch
 * runs, the read-only {@code map}s and read-only searches refused a writer (400 {@code
 * SEARCH_WRITES}), each {@code collect}'s sourcetype checked to read its summary events back where
 * a result reaching it can lack {@code _raw} ({@link CollectSourcetype}), and each {@code collect}
 * bound to its index's writer ({@link CollectWriter}).
 */
final class SearchWrites {
  private final Function<String, Query> parseExpanded;
  private final io.quarry.server.ingest.IngestService ingest;
  private final io.quarry.server.sourcetype.Sourcetypes sourcetypes;
  private final String host;

  /**
   * @param parseExpanded parses a query text with its macros and leading saved searches expanded
   * @param ingest where {@code collect} writes
   * @param sourcetypes what a search reads out of the events of each sourcetype
   * @param host its events' host unless it names one
   */
  SearchWrites(
      Function<String, Query> parseExpanded,
      io.quarry.server.ingest.IngestService ingest,
      io.quarry.server.sourcetype.Sourcetypes sourcetypes,
      String host) {
    this.parseExpanded = requireNonNull(parseExpanded, "parseExpanded is null");
    this.ingest = requireNonNull(ingest, "ingest is null");
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.host = requireNonNull(host, "host is null");
  }

  /** {@link SearchService#writingCommand}. */
  String writingCommand(String query) {
    return writingCommand(parseExpanded.apply(query));
  }

  /** {@link SearchService#writingCommand} of a parsed query. */
  String writingCommand(Query parsed) {
    for (Command command : parsed.commands()) {
      // a map not yet bound read-only writes only if its search text does
      if (WritesEvents.mayWrite(command)
          && !(RunsSearches.of(command) instanceof RunsSearches runs && !templateWrites(runs))) {
        return command.name();
      }
    }
    for (io.quarry.ql.ast.Subsearch subsearch : SubsearchExpander.subsearches(parsed)) {
      String writing = writingCommand(subsearch.text());
      if (writing != null) {
        return writing;
      }
    }
    return null;
  }

  /**
   * Whether the searches {@code runs} runs may write, judged from their text with each value a run
   * fills in a placeholder: a text that does not parse so may ({@code | $command$}).
   */
  private boolean templateWrites(RunsSearches runs) {
    try {
      return writingCommand(runs.searchTemplate(TEMPLATE_PLACEHOLDER)) != null;
    } catch (QueryParseException | io.quarry.server.http.ApiException e) {
      return true;
    }
  }

  /** What stands for a value {@code map} fills in when its search text is judged. */
  private static final String TEMPLATE_PLACEHOLDER = "1";

  /**
   * The query with each {@code map} whose search text writes nothing ({@link #templateWrites})
   * running its searches through a runner that refuses any search that writes once its values are
   * filled in ({@link ReadOnlyRunner}): such a map is read-only ({@link WritesEvents#mayWrite}).
   */
  Query readOnlyMaps(Query parsed) {
    List<Command> commands = new ArrayList<>(parsed.commands().size());
    boolean changed = false;
    for (Command command : parsed.commands()) {
      if (RunsSearches.of(command) instanceof RunsSearches runs
          && !runs.readOnly()
          && runs.runner() != null
          && !templateWrites(runs)) {
        commands.add(
            ((io.quarry.ql.ast.PluginCommand) command)
                .withBound(
                    runs.withReadOnlyRunner(
                        new ReadOnlyRunner(runs.runner(), this::writingCommand))));
        changed = true;
      } else {
        commands.add(command);
      }
    }
    return changed ? new Query(parsed.text(), commands) : parsed;
  }

  /**
   * Refuses a query whose subsearch results, spliced into its text (a row's {@code search} field is
   * spliced as is), added a command that writes ({@code x | collect …}): every check of "writes" —
   * {@link #writingCommand}, the rights checked before the subsearches ran, a read-only map's runs
   * — reads the query as written, so a spliced writer would run unchecked (400 {@code
   * SEARCH_WRITES}).
   */
  static void refuseSplicedWriters(Query written, Query expanded) {
    List<Command> writers = writers(expanded);
    if (writers.size() > writers(written).size()) {
      throw SearchFailures.writes(
          "A subsearch's result spliced into the search",
          writers.get(0).name(),
          "a subsearch may not add a command that writes; write it in the search itself");
    }
  }

  /** Refuses a read-only search's {@code command} that writes (400 {@code SEARCH_WRITES}). */
  static void refuseWriting(String command) {
    if (command != null) {
      throw SearchFailures.writes("A read-only search", command, "run it as a search of its own");
    }
  }

  /** The query's top-level commands that write or may ({@link WritesEvents#mayWrite}). */
  static List<Command> writers(Query query) {
    return query.commands().stream().filter(WritesEvents::mayWrite).toList();
  }

  /**
   * Checks that the user may write the index of each command that writes events ({@code collect})
   * in the query and, not run, its subsearches ({@link Access#requireWrite}: 403), that it exists
   * (400 {@code INDEX_NOT_FOUND}) and that the events' sourcetype reads them back (400 {@code
   * COLLECT_SOURCETYPE}, {@link CollectSourcetype}: unless every result reaching the command keeps
   * its {@code _raw}).
   */
  void checkWrites(Query parsed, Access access) {
    List<Command> commands = parsed.commands();
    for (int i = 0; i < commands.size(); i++) {
      if (WritesEvents.of(commands.get(i)) instanceof WritesEvents writes) {
        checkWrite(writes, commands.get(i).name(), commands.subList(0, i), access);
      }
    }
    for (io.quarry.ql.ast.Subsearch subsearch : SubsearchExpander.subsearches(parsed)) {
      checkWrites(parseExpanded.apply(subsearch.text()), access);
    }
  }

  /**
   * Checks one command writing events, after {@code before}: the right, the index, and its
   * sourcetype ({@link CollectSourcetype#check}), which it returns.
   */
  private CollectSourcetype checkWrite(
      WritesEvents writes, String command, List<Command> before, Access access) {
    String index = writes.index();
    access.requireWrite(index, command);
    if (!ingest.hasIndex(index)) {
      throw io.quarry.server.http.ApiException.of(
          400,
          "INDEX_NOT_FOUND",
          command
              + ": index '"
              + index
              + "' does not exist; create it first (the events of a summary go to an"
              + " existing index)",
          java.util.Map.of("index", index),
          java.util.Map.of());
    }
    CollectSourcetype sourcetype = CollectSourcetype.of(sourcetypes, writes.sourcetype(), command);
    sourcetype.check(io.quarry.ql.exec.EventText.keepsEventsRaw(before));
    return sourcetype;
  }

  /**
   * Binds each command that writes events ({@code collect}) to a writer of its index, checked again
   * ({@link #checkWrite}); with {@code writeNothing} (an {@code explain}) to one that writes
   * nothing.
   */
  Query bindWriters(Query parsed, Access access, boolean writeNothing) {
    List<Command> commands = new ArrayList<>(parsed.commands().size());
    boolean bound = false;
    for (Command command : parsed.commands()) {
      if (command instanceof io.quarry.ql.ast.PluginCommand plugin
          && WritesEvents.of(plugin) instanceof WritesEvents writes) {
        String index = writes.index();
        CollectSourcetype sourcetype =
            checkWrite(
                writes, plugin.name(), parsed.commands().subList(0, commands.size()), access);
        commands.add(
            plugin.withBound(
                writes.withWriter(
                    writeNothing
                        ? CollectWriter.NOTHING
                        : new CollectWriter(ingest, index, host, sourcetype))));
        bound = true;
      } else {
        commands.add(command);
      }
    }
    return bound ? new Query(parsed.text(), commands) : parsed;
  }
}
