package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.OverlayCommands;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.Wildcard;
import java.util.List;

/**
 * Whether a time-ordered pipeline takes its events with every field, search-time extracted ones
 * included — as a command that reads every field asks for them — so that its page source lays them
 * out as an every-field {@link EventListing} ({@link TimeOrderedShape#everyField}). The plan's
 * needed-field analysis for "every field": a pipeline that does not ask pays nothing.
 */
final class EveryFieldPlan {
  private EveryFieldPlan() {}

  /**
   * Whether the commands take the events with every field, search-time extracted ones included, as
   * the events have them where a command asks for every field: a command that reads every field or
   * names fields by a wildcard ({@link #takesEveryField}) comes before any other command but those
   * that keep the events ({@link ListedCommands#keepsEvents}), {@code eval} and {@code append},
   * whose rows then show the fields that command's output has — so the answer does not depend on
   * the fields a row would have listed without being asked; or a wildcard {@code rename} ending the
   * listing after commands that keep the events, or followed there by a wildcard {@code
   * table}/{@code fields}.
   */
  static boolean readsEveryField(List<Command> staged) {
    boolean cut = false; // pages that are no longer the every-field listing's batches
    for (int at = 0; at < staged.size(); at++) {
      Command command = staged.get(at);
      if (command instanceof io.quarry.ql.ast.TransactionCommand) {
        // a row per transaction, of its events' every field, unless a later command fixes the
        // columns (then the source loads only what the commands up to that one read)
        return staged.subList(at + 1, staged.size()).stream().noneMatch(c -> fixes(c));
      }
      if (!cut && renamesByWildcard(command)) {
        // a wildcard rename ending a listing: it renames every field an event has, extracted ones
        // too (it reads the event's discoverable names), and the row then lists them all — the
        // every-field pages, renamed. Any command after it would filter or cut those pages, whose
        // columns are then no longer the rows' (a page cut by head keeps the columns of rows past
        // the cut), so then the answer is no. A wildcard table or fields right after it reads those
        // pages' columns holding values, as it does the plain every-field pages
        return at == staged.size() - 1
            || staged.get(at + 1) instanceof ProjectCommand && takesEveryField(staged.get(at + 1));
      }
      if (takesEveryField(command)) {
        // a wildcard table or fields reads the columns holding values, format makes one row of
        // them; a plugin operator reads its input page whole, the listing's batch when only
        // commands that keep the events come before it — and its output is the event
        // with the columns it replaced laid over it (the others still the event's own, listed
        // without extraction), so a later command must fix the answer's columns
        return command instanceof ProjectCommand
            || command instanceof io.quarry.ql.ast.StatsCommand // reads columns holding values
            // a transforming plugin command reading every field: its map operator takes batches
            // of the rows with every field; an aggregation here, its answer rows of its own
            || PageAggregator.supports(command)
            || command instanceof io.quarry.ql.ast.FormatCommand
            || command instanceof io.quarry.ql.ast.FieldSummaryCommand // a row per field
            // transpose, untable: rows of its own making, whatever the events list
            || !cut && OverlayCommands.makesOwnRows(command)
            || !cut && staged.subList(at + 1, staged.size()).stream().anyMatch(c -> fixes(c));
      }
      // past the leading commands that keep the events (run before the listing lays the events
      // out as the listing's batches), an eval or append leaves pages other than those batches
      cut |= !ListedCommands.keepsEvents(command);
      if (!(ListedCommands.keepsEvents(command)
          || command instanceof io.quarry.ql.ast.EvalCommand
          || command instanceof io.quarry.ql.ast.SubsearchCommand sub
              && sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.APPEND)) {
        return false;
      }
    }
    return false;
  }

  /**
   * The index of the plugin command the every-field listing comes right before when commands that
   * change the events' fields come first ({@code index=x | eval y=1 | fillnull value=0 | stats
   * count by y}), or when a plugin command naming its fields comes before one reading every field
   * ({@code index=x | mvexpand t | fillnull | table …}); or -1. Before it: commands that keep the
   * events or whose changes {@link ListedFields} replays (a literal {@code rename} among them: its
   * row keeps every other field, extracted ones too, as in Splunk). Either a plugin command reading
   * every field that makes rows of its own ({@code transpose}) or lays its output over the rows
   * with a later command fixing the answer's columns ({@code table}, an aggregation: else {@link
   * PluginOverEvents} answers the overlay rows), after at least one change; or a plugin command
   * laying its output over the rows, then one reading every field and a command fixing the columns
   * after it. The command reading every field takes batches of the rows that reach it with every
   * field (their discoverable names): the listing lays out the changed rows so, replaying the
   * changes ({@link TimeOrderedShape#listed}), its pages hold every value a row has, and where a
   * plugin command came between, the stream is re-paged in batches of rows ({@code
   * ReduceCoverage.rebatched}: the columns holding values, as a row discovers them). Else the same
   * for {@code join} without fields ({@link #joinAfterChanges}), {@code transaction} or a wildcard
   * {@code table}/{@code fields} ({@link #ownColumnsAfterChanges}).
   */
  static int pluginAfterChanges(List<Command> pipeline) {
    int plugin = pluginBeforeEveryField(pipeline);
    if (plugin < 0) {
      plugin = joinAfterChanges(pipeline);
    }
    return plugin >= 0 ? plugin : ownColumnsAfterChanges(pipeline);
  }

  /**
   * The index of a {@code join} without fields after commands whose changes {@link ListedFields}
   * replays ({@code index=x | eval y=1 | join [search …] | table n extra y}), with a later command
   * fixing the answer's columns; or -1. It joins each batch of the rows that reach it, every field
   * asked for, on the fields that batch and the subsearch both have: the every-field listing lays
   * out the changed rows so, right before it, and it runs as a page stage on those pages ({@code
   * HashJoinOperator}), as without the changes ({@link #readsEveryField}).
   */
  private static int joinAfterChanges(List<Command> pipeline) {
    int at = 0;
    while (at < pipeline.size()
        && !(pipeline.get(at) instanceof io.quarry.ql.ast.SubsearchCommand
            && takesEveryField(pipeline.get(at)))) {
      at++;
    }
    if (at == pipeline.size()) {
      return -1;
    }
    int listedAt = beforeStagedChanges(pipeline, beforeAppend(pipeline, at));
    ListedFields changes = listedAt < 0 ? null : ListedFields.of(pipeline.subList(0, listedAt));
    // the columns fixed by name or by an aggregation (a wildcard table lists each row's fields in
    // the order the overlay rows list them, which these pages do not keep)
    return changes != null
            && (!changes.isEmpty() || listedAt < at)
            && pipeline.subList(at + 1, pipeline.size()).stream()
                .anyMatch(c -> fixes(c) && !(c instanceof ProjectCommand && takesEveryField(c)))
        ? listedAt
        : -1;
  }

  /**
   * Where the every-field listing goes for a command reading every field at {@code at} (a plugin
   * command, {@code join} without fields) when a later command fixes the answer's columns: right
   * before the first {@code append} before it, if any — the append then runs on the listing's pages
   * (the listing's batches of the events, then the subsearch's rows as they are), and the commands
   * between them as stages over both, row-local ones or those that keep the rows ({@code
   * eventstats}/{@code streamstats} too: their groups span both kinds of rows) —, else {@code at};
   * -1 when a command between is none of those.
   */
  private static int beforeAppend(List<Command> pipeline, int at) {
    int append = 0;
    while (append < at && !appends(pipeline.get(append))) {
      append++;
    }
    for (Command between : pipeline.subList(append, at)) {
      if (!(appends(between)
          || ListedCommands.keepsEvents(between)
          || ListedCommands.changesListedRows(between)
          || between instanceof io.quarry.ql.ast.EventStatsCommand
          || between instanceof io.quarry.ql.ast.StreamStatsCommand
          || between instanceof io.quarry.ql.ast.BinCommand bin && bin.rowLocal()
          // a plugin command laying its output over the rows, events and appended alike
          || OverlayCommands.overlays(between))) {
        return -1;
      }
    }
    return append;
  }

  /**
   * Where the every-field listing goes for one due at {@code at} (-1: none) when a command that
   * {@link ListedFields} does not replay but that runs as a stage on the listing's pages as on the
   * rows comes before it — a wildcard {@code rename} (it renames every field a row can yield, which
   * the every-field pages hold), a plugin command laying its output over the rows ({@code convert},
   * {@code fillnull} …: it takes batches of the rows with every field), an {@code append} —: right
   * before the first such command, when every command from it to {@code at} is one of those or one
   * {@link #ownColumnsAfterChanges} also runs there; else {@code at}.
   */
  private static int beforeStagedChanges(List<Command> pipeline, int at) {
    if (at < 0) {
      return at;
    }
    int first = 0;
    while (first < at && !notReplayed(pipeline.get(first))) {
      first++;
    }
    for (Command between : pipeline.subList(first, at)) {
      if (!(notReplayed(between)
          || between instanceof io.quarry.ql.ast.EvalCommand
          || between instanceof io.quarry.ql.ast.LookupCommand
          || between instanceof io.quarry.ql.ast.RexCommand
          || between instanceof io.quarry.ql.ast.EventStatsCommand
          || between instanceof io.quarry.ql.ast.StreamStatsCommand
          || between instanceof io.quarry.ql.ast.BinCommand bin && bin.rowLocal()
          || between instanceof io.quarry.ql.ast.RenameCommand && !renamesByWildcard(between)
          || between instanceof ProjectCommand project
              && project.kind() == ProjectCommand.Kind.REMOVE
          || ListedCommands.keepsEvents(between))) {
        return at;
      }
    }
    return first;
  }

  /**
   * A command {@link ListedFields} does not replay that runs as a stage on every-field pages: an
   * exact wildcard {@code rename}, a plugin command laying its output over the rows, an {@code
   * append}.
   */
  private static boolean notReplayed(Command command) {
    return renamesByWildcard(command) && PageChain.supports(List.of(command))
        || OverlayCommands.overlays(command)
        || appends(command);
  }

  /** {@link #pluginAfterChanges}'s plugin command reading every field, or -1. */
  private static int pluginBeforeEveryField(List<Command> pipeline) {
    int at = firstPlugin(pipeline, pipeline.size());
    if (at == pipeline.size()) {
      return -1;
    }
    int listedAt = beforeStagedChanges(pipeline, beforeAppend(pipeline, at));
    if (listedAt < 0) {
      return -1;
    }
    ListedFields changes = ListedFields.of(pipeline.subList(0, listedAt));
    if (changes == null) {
      return -1;
    }
    Command plugin = pipeline.get(at);
    List<Command> after = pipeline.subList(at + 1, pipeline.size());
    if (takesEveryField(plugin)) {
      return (!changes.isEmpty() || listedAt < at)
              && (OverlayCommands.makesOwnRows(plugin)
                  || OverlayCommands.overlays(plugin)
                      && after.stream().anyMatch(EveryFieldPlan::fixes))
          ? listedAt
          : -1;
    }
    int every = 0;
    while (every < after.size() && !takesEveryField(after.get(every))) {
      every++;
    }
    return OverlayCommands.overlays(plugin)
            && every < after.size()
            && OverlayCommands.overlays(after.get(every))
            && after.subList(every + 1, after.size()).stream().anyMatch(EveryFieldPlan::fixes)
        ? listedAt
        : -1;
  }

  /**
   * As {@link #pluginAfterChanges} for {@code transaction} (its rows list its events' every field)
   * and a wildcard {@code table} or {@code fields} (the columns of the rows holding values), which
   * fix their own columns: the index the every-field listing comes before, or -1. Commands whose
   * changes {@link ListedFields} replays (a literal {@code rename} too) come first, then maybe
   * plugin commands laying their output over the rows ({@code fillnull}, {@code mvexpand}) or
   * wildcard {@code rename}s (exact on pages: {@code rename re* AS x*} renames every field the row
   * can yield) among {@code eval}s, {@code rex}es, {@code lookup}s, {@code bin}s, literal {@code
   * rename}s, {@code eventstats}/{@code streamstats}, {@code fields -} (it drops those columns) and
   * commands that keep the rows — each of those keeps every other field a row can yield (its
   * search-time ones too), so the listing goes right before the first plugin command or wildcard
   * rename and they run as stages on its pages. A {@code transaction} followed by a command fixing
   * the columns takes only the fields the commands read instead (not here).
   */
  private static int ownColumnsAfterChanges(List<Command> pipeline) {
    int reader = 0;
    while (reader < pipeline.size() && !fixesOwnColumns(pipeline.get(reader))) {
      reader++;
    }
    if (reader == pipeline.size()
        || pipeline.get(reader) instanceof io.quarry.ql.ast.TransactionCommand
            && pipeline.subList(reader + 1, pipeline.size()).stream()
                .anyMatch(EveryFieldPlan::fixes)) {
      return -1;
    }
    // the listing comes before the first plugin command or wildcard rename: ListedFields replays
    // neither (a wildcard rename renames every field a row can yield, its stage the listing's
    // columns)
    int at = 0;
    while (at < reader
        && !(pipeline.get(at) instanceof io.quarry.ql.ast.PluginCommand
            || renamesByWildcard(pipeline.get(at))
            || joinsOnCommonFields(pipeline.get(at))
            || appends(pipeline.get(at)))) {
      at++;
    }
    ListedFields changes = ListedFields.of(pipeline.subList(0, at));
    if (changes == null || changes.isEmpty() && (at == reader || readsEveryField(pipeline))) {
      return -1; // no change: the plain every-field listing, if any (readsEveryField)
    }
    for (Command between : pipeline.subList(at, reader)) {
      if (!(OverlayCommands.overlays(between)
          || between instanceof io.quarry.ql.ast.EvalCommand
          // lookup and rex lay their outputs over the row as eval does
          || between instanceof io.quarry.ql.ast.LookupCommand
          || between instanceof io.quarry.ql.ast.RexCommand
          || renamesByWildcard(between) && PageChain.supports(List.of(between)) // exactly
          // join without fields: joins each every-field page of the rows that reach it and lays
          // the subsearch's over them
          || joinsOnCommonFields(between)
          // append: the listing's batches of the events, then its subsearch's rows as they are
          || appends(between)
          || between instanceof io.quarry.ql.ast.EventStatsCommand // results laid over the row
          || between instanceof io.quarry.ql.ast.StreamStatsCommand
          || between instanceof io.quarry.ql.ast.BinCommand // a bucket laid over the row, as eval
          || between instanceof io.quarry.ql.ast.RenameCommand && !renamesByWildcard(between)
          // fields -: drops those columns of the pages, which hold every field a row can yield
          || between instanceof ProjectCommand project
              && project.kind() == ProjectCommand.Kind.REMOVE
          || ListedCommands.keepsEvents(between))) {
        return -1;
      }
    }
    return at;
  }

  /** The index of the first plugin command before {@code limit}, or {@code limit}. */
  private static int firstPlugin(List<Command> pipeline, int limit) {
    int at = 0;
    while (at < limit && !(pipeline.get(at) instanceof io.quarry.ql.ast.PluginCommand)) {
      at++;
    }
    return at;
  }

  /** Whether a command is a {@code join} without fields (on those both sides have). */
  private static boolean joinsOnCommonFields(Command command) {
    return command instanceof io.quarry.ql.ast.SubsearchCommand sub
        && sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.JOIN
        && sub.join().fields().isEmpty();
  }

  /** Whether a command is an {@code append}. */
  private static boolean appends(Command command) {
    return command instanceof io.quarry.ql.ast.SubsearchCommand sub
        && sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.APPEND;
  }

  /** A {@code transaction}, or a {@code table}/{@code fields} naming fields by a wildcard. */
  private static boolean fixesOwnColumns(Command command) {
    return command instanceof io.quarry.ql.ast.TransactionCommand
        || command instanceof ProjectCommand && takesEveryField(command);
  }

  /** Whether a command is a {@code rename} with a wildcard. */
  private static boolean renamesByWildcard(Command command) {
    return command instanceof io.quarry.ql.ast.RenameCommand rename
        && rename.renames().stream().anyMatch(r -> Wildcard.hasWildcard(r.from()));
  }

  /**
   * Whether a command's output columns are its own, whatever fields its input rows list: a {@code
   * table} or {@code fields} keeping named fields, an aggregation, {@code format}, {@code return}.
   */
  private static boolean fixes(Command command) {
    return command instanceof ProjectCommand project && project.kind() != ProjectCommand.Kind.REMOVE
        || PageAggregator.supports(command)
        || command instanceof io.quarry.ql.ast.FormatCommand
        || command instanceof io.quarry.ql.ast.ReturnCommand;
  }

  /**
   * A plugin command reading every field, not field by field ({@code fillnull}, {@code transpose}
   * …), {@code format}, {@code fieldsummary}, {@code join} without fields (it joins on the fields
   * its input's batch and the subsearch have), or a {@code table}/{@code fields} naming fields by a
   * wildcard: each reads an event's every field, search-time extracted ones included, as {@code
   * transaction} does for its results (see {@link #readsEveryField}).
   */
  private static boolean takesEveryField(Command command) {
    return switch (command) {
      case io.quarry.ql.ast.FormatCommand format -> true;
      case io.quarry.ql.ast.FieldSummaryCommand summary -> true;
      case io.quarry.ql.ast.StatsCommand stats -> // stats avg(*): WildcardAggregation
          io.quarry.ql.engine.aggregation.WildcardAggregation.supports(stats);
      case ProjectCommand project ->
          project.kind() != ProjectCommand.Kind.REMOVE
              && project.patterns().stream().anyMatch(Wildcard::hasWildcard);
      case io.quarry.ql.ast.PluginCommand plugin ->
          plugin.bound().requiredFields().contains("*") && !PageChain.supports(List.of(plugin));
      // join without fields: on the fields its input batch and the subsearch both have
      case io.quarry.ql.ast.SubsearchCommand sub ->
          sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.JOIN
              && sub.join().fields().isEmpty();
      default -> false;
    };
  }
}
