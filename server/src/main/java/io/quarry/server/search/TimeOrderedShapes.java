package io.quarry.server.search;

import io.quarry.codecs.store.EventFields;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.InputFields;
import io.quarry.ql.exec.OverlayCommands;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.Wildcard;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides the {@link TimeOrderedShape} of a time-ordered pipeline ({@link TimeOrderedShape#of}):
 * which of its kinds takes the pipeline — every-field pages (for a bare word over events without
 * {@code _raw}, for a plugin command reading every field after changes, for a wildcard {@code
 * rename}, for plugin commands over events), an aggregation after commands that need time order, an
 * event listing (with an {@code append} or an {@code outputlookup} in it), or stages whose columns
 * a {@code table}, {@code return} or row-making plugin fixes —, the fields its source reads and its
 * events per page; null for a pipeline none of them takes.
 */
final class TimeOrderedShapes {
  private TimeOrderedShapes() {}

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
   * a stage there too. Null where the commands do not all run on those pages, a leading search is
   * fused into the source, or a plugin command reading every field ({@code fillnull} without
   * fields) or a {@code join} without fields leads — over every-field pages their answer would
   * depend on which fields a page's rows happen to bring (the fields to fill, the fields both sides
   * have) —, or a wildcard rename before a plugin command ({@link PluginOverEvents#startsAt}).
   */
  static TimeOrderedShape everyFieldForWords(List<Command> pipeline, int pageSize) {
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

  static TimeOrderedShape shapeOf(
      List<Command> pipeline,
      int pageSize,
      java.util.function.Function<String, List<String>> tableColumns) {
    int fused = EventPages.fusedPrefix(pipeline);
    List<Command> staged = pipeline.subList(fused, pipeline.size());
    int changedUpTo = EveryFieldPlan.pluginAfterChanges(pipeline);
    if (changedUpTo >= 0
        && (ReduceCoverage.supportsOverEvents(pipeline) || TimeOrderedShape.ownText(pipeline))) {
      // the events, their fields changed by the commands before the plugin command that reads
      // every field (stages marking what they set), laid out as every-field pages of those rows,
      // the changes replayed (a leading rex a stage, not fused); where a bare word after them
      // needs the events' own text (eval _raw=… | table * | search x), the pages carry it
      // (TimeOrderedPages)
      ListedFields before = ListedFields.of(pipeline.subList(0, changedUpTo), tableColumns);
      return TimeOrderedShape.everyFieldPages(
          eventFields(pipeline.subList(0, changedUpTo), before.loaded()),
          smallestHead(pipeline, pageSize),
          changedUpTo,
          before);
    }
    if (fused == 0 && TimeOrderedShape.everyFieldPlan(staged)) {
      // the events, filtered, cut or reordered by the leading commands that keep them, laid out
      // with every field into the other commands (an aggregation among them a stage)
      int listedAt = 0;
      while (listedAt < staged.size() && ListedCommands.keepsEvents(staged.get(listedAt))) {
        listedAt++;
      }
      return TimeOrderedShape.everyFieldPages(
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
      return TimeOrderedShape.everyFieldPages(
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
        return TimeOrderedShape.overFields(
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
    boolean ownTextStaged =
        TimeOrderedShape.ownText(staged); // a bare word needing the events' own text
    if (!overEvents && !ownTextStaged && firstPlugin < 0) {
      return null;
    }
    ListedFields listed = ListedFields.of(pipeline, tableColumns);
    boolean listable =
        listed != null
            && (ReduceCoverage.supportsOverEvents(pipeline) || TimeOrderedShape.ownText(pipeline));
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
      // laid over them (EventListing.withOtherRows); past a fields of names before it, an event
      // lists only what it kept, never a field only those rows list (ListingLayout)
      return TimeOrderedShape.listingOf(
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
      return TimeOrderedShape.listingOf(
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
      return TimeOrderedShape.everyFieldPages(
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
          && OverlayCommands.makesOwnRows(plugin)
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
      return TimeOrderedShape.overFields(
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
    return TimeOrderedShape.listingOf(
        eventFields(pipeline, listed.loaded()), smallestHead(pipeline, pageSize), listed, -1);
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
