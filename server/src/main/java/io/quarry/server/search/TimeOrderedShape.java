package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.InputFields;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.PluginOverlayOperator;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.Wildcard;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The shape a time-ordered search (no aggregation first: events newest first) takes on pages, as
 * {@link TimeOrderedPages} runs it: which leading {@code rex} commands the source runs, the fields
 * it reads, events per source page, whether the answer is an event listing ({@link EventListing},
 * {@link ListedFields}), every-field pages ({@link EveryFieldPlan}), or an aggregation after
 * commands that need time order. {@link #of} decides it from the pipeline, or answers null for a
 * search it does not support.
 *
 * @param fused the leading {@code rex} commands the source runs
 * @param sourceFields the fields the source reads
 * @param pageSize events per page: the smallest {@code head} count before any {@code sort} when
 *     that is below the engine's page size (so {@code head 10} reads ten events, not a page)
 * @param listing whether the answer is the events themselves ({@link EventListing})
 * @param aggregateAt the index in the pipeline of an aggregation after commands that need events in
 *     time order ({@code head 100 | stats count}), run as a page aggregation; -1 for none
 * @param everyField whether the events carry every field, search-time extracted ones included
 *     ({@link EventListing}'s every-field pages): for a listing, its answer's pages (a subsearch's
 *     events); else the pages the commands from {@code listedAt} on take ({@link EveryFieldPlan})
 * @param listedAt when not a listing but {@code everyField}: how many leading commands (those that
 *     keep the events, or whose changes {@code listed} holds) run on the source's pages before the
 *     every-field listing lays them out
 * @param listed for a listing, how its commands change the fields its rows list; for every-field
 *     pages, how the commands before {@code listedAt} do ({@link
 *     EveryFieldPlan#pluginAfterChanges}; for plugin commands over events, those before and after
 *     them: {@link PluginOverEvents}); else empty
 * @param ownText when not a listing: whether the source's pages carry each event's own raw text
 *     ({@link io.quarry.ql.exec.EventText#withOwnText}) for a bare word after commands that change
 *     {@code _raw} or bring in other rows ({@code eval _raw=…}, {@code append}, {@code join})
 * @param appendAt for a listing: the index of its first {@code append} (-1: none), the commands
 *     from there on keeping the rows as they come ({@link ListedCommands#keepsListedRows}): the
 *     subsearch's rows go through them among the events and the listing lists them as they are
 *     ({@link EventListing#withOtherRows}), event rows and others paged alike
 * @param wordsOverEveryField whether the every-field pages go into all of the commands as plain
 *     stages ({@link #everyFieldForWords}): never through {@link PluginOverEvents} or {@link
 *     RenameOverEvents}, even where one of them would take a pipeline of that start
 */
record TimeOrderedShape(
    int fused,
    List<String> sourceFields,
    int pageSize,
    boolean listing,
    int aggregateAt,
    boolean everyField,
    int listedAt,
    ListedFields listed,
    boolean ownText,
    int appendAt,
    boolean wordsOverEveryField) {
  /**
   * A shape that is no listing, its source (its leading {@code fused} commands fused into it)
   * reading {@code sourceFields}, its pages carrying each event's own raw text where {@code
   * ownText} ({@link io.quarry.ql.exec.EventText#withOwnText}).
   */
  private static TimeOrderedShape overFields(
      int fused, List<String> sourceFields, int pageSize, int aggregateAt, boolean ownText) {
    return new TimeOrderedShape(
        fused,
        sourceFields,
        pageSize,
        false,
        aggregateAt,
        false,
        0,
        ListedFields.of(List.of()),
        ownText,
        -1,
        false);
  }

  /** This listing with every field of its events in its answer (a subsearch's). */
  TimeOrderedShape withEveryField() {
    return new TimeOrderedShape(
        fused,
        sourceFields,
        pageSize,
        listing,
        aggregateAt,
        true,
        0,
        listed,
        ownText,
        appendAt,
        wordsOverEveryField);
  }

  /** The shape of {@code pipeline} on pages, or null when it is not supported. */
  static TimeOrderedShape of(List<Command> pipeline, int pageSize) {
    return of(pipeline, pageSize, table -> null);
  }

  /**
   * As above; {@code tableColumns} gives a lookup table's columns by name (null: none), the outputs
   * of a listing's {@code lookup} without {@code OUTPUT} ({@link ListedFields}).
   */
  static TimeOrderedShape of(
      List<Command> pipeline,
      int pageSize,
      java.util.function.Function<String, List<String>> tableColumns) {
    TimeOrderedShape shape = shapeOf(pipeline, pageSize, tableColumns);
    return shape == null || !shape.sourceFields().contains("*")
        ? shape
        : everyFieldForWords(pipeline, pageSize);
  }

  /**
   * The shape of a pipeline with a bare word over events that no longer hold {@code _raw} ({@code
   * fields - _raw}, {@code rename _raw AS r} before it, no {@code table} of names fixing the
   * columns): the word asks each row's every field ({@code io.quarry.ql.eval.FieldValueTerm};
   * {@code InputFields.of} answers {@code *}), so the events go, every field extracted, into all of
   * the commands ({@link EventListing}'s every-field pages, as a batch search's every-field
   * aggregation takes them: {@code PageBatch}). A leading wildcard {@code rename} renames every
   * field those pages hold, as it renames every field a row can yield, and a leading {@code append}
   * hands them on, its subsearch's rows (every field too) after them: both run as stages there, not
   * through {@link RenameOverEvents} or {@link PluginOverEvents} ({@link #wordsOverEveryField}). A
   * leading plugin command of named fields ({@code mvexpand team}, {@code convert num(n) AS nn}) is
   * a stage there too (session 30). Null where the commands do not all run on those pages, a
   * leading search is fused into the source, or a plugin command reading every field ({@code
   * fillnull} without fields) or a {@code join} without fields leads — over every-field pages their
   * answer would depend on which fields a page's rows happen to bring (the fields to fill, the
   * fields both sides have) —, or a wildcard rename before a plugin command ({@link
   * PluginOverEvents#startsAt}).
   */
  private static TimeOrderedShape everyFieldForWords(List<Command> pipeline, int pageSize) {
    Command first = pipeline.isEmpty() ? null : pipeline.get(0);
    if (EventPages.fusedPrefix(pipeline) != 0
        || !ReduceCoverage.supportsOverEvents(pipeline)
        || PluginOverEvents.startsAt(pipeline, 0)
            && !(first instanceof io.quarry.ql.ast.SubsearchCommand sub
                && sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.APPEND)
            && !(first instanceof io.quarry.ql.ast.PluginCommand plugin
                && !plugin.bound().requiredFields().contains("*")
                && PageChain.supports(List.of(first)))) {
      return null;
    }
    return new TimeOrderedShape(
        0,
        List.copyOf(EventListing.DEFAULT_ORDER),
        smallestHead(pipeline, pageSize),
        false,
        -1,
        true,
        0,
        ListedFields.of(List.of()),
        false,
        -1,
        true);
  }

  private static TimeOrderedShape shapeOf(
      List<Command> pipeline,
      int pageSize,
      java.util.function.Function<String, List<String>> tableColumns) {
    int fused = EventPages.fusedPrefix(pipeline);
    List<Command> staged = pipeline.subList(fused, pipeline.size());
    int changedUpTo = EveryFieldPlan.pluginAfterChanges(pipeline);
    if (changedUpTo >= 0 && (ReduceCoverage.supportsOverEvents(pipeline) || ownText(pipeline))) {
      // the events, their fields changed by the commands before the plugin command that reads
      // every field (stages marking what they set), laid out as every-field pages of those rows,
      // the changes replayed (a leading rex a stage, not fused); where a bare word after them
      // needs the events' own text (eval _raw=… | table * | search x), the pages carry it
      // (TimeOrderedPages)
      ListedFields before = ListedFields.of(pipeline.subList(0, changedUpTo), tableColumns);
      return everyFieldPages(
          eventFields(pipeline.subList(0, changedUpTo), before.loaded()),
          smallestHead(pipeline, pageSize),
          changedUpTo,
          before);
    }
    if (fused == 0 && everyFieldPlan(staged)) {
      // the events, filtered, cut or reordered by the leading commands that keep them, laid out
      // with every field into the other commands (an aggregation among them a stage)
      int listedAt = 0;
      while (listedAt < staged.size() && ListedCommands.keepsEvents(staged.get(listedAt))) {
        listedAt++;
      }
      return everyFieldPages(
          eventFields(staged.subList(0, listedAt), Set.of()),
          smallestHead(staged, pageSize),
          listedAt,
          ListedFields.of(List.of()));
    }
    int renameAt = RenameOverEvents.at(pipeline);
    int renamedTo = renameAt < 0 ? -1 : RenameOverEvents.end(pipeline, renameAt);
    ListedFields afterRename =
        renameAt < 0
            ? null
            : ListedFields.of(pipeline.subList(renamedTo, pipeline.size()), tableColumns);
    if (afterRename != null) {
      // a wildcard rename among other commands (with the renames right after it): the events as
      // the commands before it leave them, with every field, renamed, then the commands after it
      // replayed over each row's renamed names (RenameOverEvents)
      return everyFieldPages(
          eventFields(
              pipeline.subList(0, renameAt), RenameOverEvents.before(pipeline, renameAt).loaded()),
          smallestHead(pipeline, pageSize),
          renameAt,
          afterRename.fromStage(renamedTo));
    }
    for (int at = 0; at < staged.size(); at++) {
      if (PageAggregator.supports(staged.get(at))) {
        List<Command> before = staged.subList(0, at);
        // past a table or fields of literal names the pages hold only its columns, so a command
        // after it that reads every field (outputlookup) reads those: the source loads what the
        // commands up to it read
        int fixed = lastFixingProject(before);
        List<Command> loading = fixed < 0 ? before : before.subList(0, fixed + 1);
        // a bare word after eval _raw=…, append, join: the source's pages carry the events' text
        boolean ownText = !ReduceCoverage.supportsOverEvents(before);
        if (!(ownText
                ? ReduceCoverage.supportsOverReadFieldsOverEventsWithOwnText(loading)
                    && ReduceCoverage.supportsOverEventsWithOwnText(before)
                : ReduceCoverage.supportsOverReadFieldsOverEvents(loading))
            || PageAggregator.inputFields(staged.get(at)).contains("*")
            || !ReduceCoverage.supportsOverResults(staged.subList(at + 1, staged.size()))) {
          return null;
        }
        return overFields(
            fused,
            withOwnText(
                fixed < 0
                    ? InputFields.of(before, PageAggregator.inputFields(staged.get(at)))
                    : InputFields.of(loading, columns((ProjectCommand) before.get(fixed))),
                ownText),
            smallestHead(before, pageSize),
            fused + at,
            ownText);
      }
    }
    boolean overEvents = ReduceCoverage.supportsOverEvents(staged);
    // else a search of bare words after _raw changed, exact only in a listing that carries the
    // events' own text: after eval, rex, rename, lookup, or plugin commands (PluginOverEvents; a
    // leading rex a stage there, not fused into the source)
    int firstPlugin = PluginOverEvents.firstPlugin(pipeline, tableColumns);
    boolean ownTextStaged = ownText(staged); // a bare word needing the events' own text
    if (!overEvents && !ownTextStaged && firstPlugin < 0) {
      return null;
    }
    ListedFields listed = ListedFields.of(pipeline, tableColumns);
    boolean listable =
        listed != null && (ReduceCoverage.supportsOverEvents(pipeline) || ownText(pipeline));
    if (listable && !listed.keeps()) { // a fields of names: its stage fixes the columns (below)
      // the events themselves, filtered, cut or reordered, with the fields eval, rex, lookup,
      // rename, eventstats and streamstats set and fields - removes laid over them
      // (ListedFields: eventstats' and streamstats' stages run on the source's pages); a leading
      // rex is a stage here, not fused into the source
      return listingOf(pipeline, pageSize, listed);
    }
    int appendAt = ListedCommands.appendEndingListing(pipeline);
    ListedFields beforeAppend =
        appendAt < 0 ? null : ListedFields.of(pipeline.subList(0, appendAt), tableColumns);
    if (appendAt >= 0
        && !pipeline.subList(appendAt, pipeline.size()).stream()
            .allMatch(ListedCommands::keepsListedRows)) {
      // changes after it: replayed over the events' fields and the subsearch's rows' alike
      beforeAppend = ListedFields.of(pipeline, tableColumns, appendAt);
    }
    if (beforeAppend != null) {
      // a listing whose commands from the append on keep the rows as they come or change their
      // fields as ListedFields replays: the subsearch's rows go through them among the events' (a
      // bare word matching none of them), and the listing lists them as they are, those changes
      // laid over them (EventListing.withOtherRows)
      return listingOf(
          eventFields(pipeline, beforeAppend.loaded()),
          smallestHead(pipeline, pageSize),
          beforeAppend,
          appendAt);
    }
    int tableAt = EventTable.at(pipeline, tableColumns);
    if (tableAt >= 0) {
      // the events themselves, with the fields the commands change laid over them (ListedFields),
      // outputlookup writing every row as it lists them there (EventTable); a leading rex is a
      // stage here, not fused into the source
      List<Command> passed = new java.util.ArrayList<>(pipeline.subList(0, tableAt));
      passed.addAll(pipeline.subList(tableAt + 1, pipeline.size()));
      ListedFields whole = ListedFields.of(pipeline, tableColumns, tableAt);
      return listingOf(
          eventFields(passed, whole.loaded()),
          smallestHead(pipeline.subList(0, tableAt), pageSize), // the table takes every row
          whole,
          -1);
    }
    ListedFields aroundPlugins =
        firstPlugin < 0 ? null : PluginOverEvents.changes(pipeline, firstPlugin, tableColumns);
    if (aroundPlugins != null) {
      // the events the leading commands keep, their changes laid over them, as pages of every
      // field, through the plugin commands, their output laid over them, then the commands after
      // them replayed over what the overlay rows list, and so on for each run of plugin commands
      // (PluginOverEvents)
      int at = firstPlugin;
      return everyFieldPages(
          eventFields(
              pipeline.subList(0, at),
              ListedFields.of(pipeline.subList(0, at), tableColumns).loaded()),
          smallestHead(pipeline, pageSize),
          at,
          aroundPlugins);
    }
    if (!overEvents && !ownTextStaged) {
      return null;
    }
    for (int cut = 0; cut < staged.size(); cut++) {
      Command command = staged.get(cut);
      List<Command> toCut;
      Set<String> columns;
      if (command instanceof ProjectCommand project && fixesColumns(project)) {
        toCut = staged.subList(0, cut + 1);
        columns = columns(project);
      } else if (command instanceof io.quarry.ql.ast.ReturnCommand ret) { // reads only its fields
        toCut = staged.subList(0, cut);
        columns = new LinkedHashSet<>();
        ret.items().forEach(item -> columns.add(item.field()));
      } else if (command instanceof io.quarry.ql.ast.PluginCommand plugin
          && PluginOverlayOperator.makesOwnRows(plugin)
          && !plugin.bound().requiredFields().contains("*")) {
        // xyseries: reads its named fields, answers rows of its own
        toCut = staged.subList(0, cut);
        columns = new LinkedHashSet<>(plugin.bound().requiredFields());
      } else if (command instanceof io.quarry.ql.ast.PluginCommand plugin
          && plugin.bound() instanceof io.quarry.ql.plan.RunsSearches) {
        // map: reads its template's fields, answers its searches' results
        toCut = staged.subList(0, cut);
        columns = new LinkedHashSet<>(plugin.bound().requiredFields());
      } else {
        continue;
      }
      boolean ownText = !overEvents;
      if (!(ownText
          ? ReduceCoverage.supportsOverReadFieldsOverEventsWithOwnText(toCut)
          : ReduceCoverage.supportsOverReadFieldsOverEvents(toCut))) {
        // a command before the columns are fixed that reads every field: the listing, if any
        return listable ? listingOf(pipeline, pageSize, listed) : null;
      }
      return overFields(
          fused,
          withOwnText(InputFields.of(toCut, columns), ownText),
          smallestHead(staged, pageSize),
          -1,
          ownText);
    }
    return listable ? listingOf(pipeline, pageSize, listed) : null;
  }

  /**
   * The fields a source of the events themselves reads (no leading {@code rex} fused into it):
   * every default field, those {@code commands} read, and {@code loaded} (those a listing's
   * replayed changes read: {@link ListedFields#loaded}).
   */
  private static List<String> eventFields(List<Command> commands, Set<String> loaded) {
    Set<String> fields = new LinkedHashSet<>(EventListing.DEFAULT_ORDER);
    fields.addAll(InputFields.of(commands, List.of()));
    fields.addAll(loaded);
    return List.copyOf(fields);
  }

  /**
   * The event listing of {@code pipeline}'s events, {@code listed} (its changes) laid over them.
   */
  private static TimeOrderedShape listingOf(
      List<Command> pipeline, int pageSize, ListedFields listed) {
    return listingOf(
        eventFields(pipeline, listed.loaded()), smallestHead(pipeline, pageSize), listed, -1);
  }

  /** An event listing of the events themselves, {@code listed} laid over them. */
  private static TimeOrderedShape listingOf(
      List<String> sourceFields, int pageSize, ListedFields listed, int appendAt) {
    return new TimeOrderedShape(
        0, sourceFields, pageSize, true, -1, false, 0, listed, false, appendAt, false);
  }

  /**
   * Every-field pages of the events themselves, taken by the commands from {@code listedAt} on,
   * {@code listed} the changes laid over them.
   */
  private static TimeOrderedShape everyFieldPages(
      List<String> sourceFields, int pageSize, int listedAt, ListedFields listed) {
    return new TimeOrderedShape(
        0, sourceFields, pageSize, false, -1, true, listedAt, listed, false, -1, false);
  }

  /**
   * Whether a listing's commands search bare words after a command that changed {@code _raw} but
   * kept the rows events ({@code eval _raw=…}, {@code lookup} without {@code OUTPUT}): exact where
   * the listing's pages carry each event's own text ({@link ListingColumns#withEventText}), which a
   * term then matches rather than the changed {@code _raw}.
   */
  static boolean ownText(List<Command> pipeline) {
    return !ReduceCoverage.supportsOverEvents(pipeline)
        && ReduceCoverage.supportsOverEventsWithOwnText(pipeline);
  }

  /**
   * The fields a source reads, {@code _raw} among them where its pages carry the events' own text
   * (which a command writing {@code _raw} no longer needs from the source, but a bare word does).
   */
  private static List<String> withOwnText(Set<String> fields, boolean ownText) {
    Set<String> read = new LinkedHashSet<>(fields);
    if (ownText) {
      read.add(EventFields.RAW);
    }
    return List.copyOf(read);
  }

  /**
   * Whether the commands past the source take the every-field listing into their page stages
   * ({@link EveryFieldPlan}) — which comes before plugin commands over events ({@link
   * PluginOverEvents}) that also take every field.
   */
  static boolean everyFieldPlan(List<Command> staged) {
    return (EveryFieldPlan.readsEveryField(staged)
            || EveryFieldPlan.pluginAfterChanges(staged) >= 0)
        && ReduceCoverage.supportsOverEvents(staged);
  }

  /**
   * Events per source page: the smallest {@code head} count before any {@code sort} when that is
   * below the engine's page size (so {@code head 10} reads ten events, not a page).
   */
  private static int smallestHead(List<Command> staged, int pageSize) {
    long smallestHead = pageSize;
    for (Command command : staged) {
      if (command instanceof SortCommand
          || command instanceof io.quarry.ql.ast.ReorderCommand
          || command instanceof io.quarry.ql.ast.EventStatsCommand
          || command instanceof io.quarry.ql.ast.TransactionCommand
          || command instanceof io.quarry.ql.ast.BinCommand bin && !bin.rowLocal()) {
        break; // a sort, reverse, tail, eventstats, transaction, bin bins=N reads every event: a
        // head after it
        // sizes none
      }
      if (command instanceof HeadCommand head) {
        smallestHead = Math.min(smallestHead, head.limit());
      }
    }
    return (int) Math.max(1, smallestHead);
  }

  /** The index of the last {@code table}/{@code fields} that fixes the columns, -1 for none. */
  private static int lastFixingProject(List<Command> commands) {
    for (int at = commands.size() - 1; at >= 0; at--) {
      if (commands.get(at) instanceof ProjectCommand project && fixesColumns(project)) {
        return at;
      }
    }
    return -1;
  }

  /** The columns a {@code table}/{@code fields} of literal names leaves. */
  private static Set<String> columns(ProjectCommand project) {
    Set<String> columns = new LinkedHashSet<>(project.patterns());
    if (project.kind() == ProjectCommand.Kind.KEEP) {
      columns.add(EventFields.TIME); // fields keeps the internal fields, as the row command
      columns.add(EventFields.RAW);
    }
    return columns;
  }

  private static boolean fixesColumns(ProjectCommand project) {
    return project.kind() != ProjectCommand.Kind.REMOVE
        && project.patterns().stream().noneMatch(Wildcard::hasWildcard);
  }
}
