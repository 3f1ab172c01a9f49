package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.DedupCommand;
import io.quarry.ql.ast.HeadCommand;
import io.quarry.ql.ast.LookupCommand;
import io.quarry.ql.ast.ProjectCommand;
import io.quarry.ql.ast.RenameCommand;
import io.quarry.ql.ast.SortCommand;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.Wildcard;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What the commands after an event listing do to its rows: which keep them events ({@link
 * #keepsEvents}), keep them as they come after an {@code append} ({@link #keepsListedRows}) or
 * change their fields as {@link ListedFields} replays ({@link #changesListedRows}); which forms of
 * them {@link ListedFields} replays exactly, and the fields they set where that depends on more
 * than the command's text: a {@code rename}'s pairs, a {@code lookup}'s outputs.
 */
final class ListedCommands {
  private ListedCommands() {}

  /**
   * Whether a literal {@code rename} replays exactly, pair by pair (its stage marks where each pair
   * moved a value, a new name given twice too), no name renamed to itself. A name a pair moved a
   * value from or to and that no later pair left a value under has none — {@code b} in {@code a AS
   * b, b AS c}, {@code a} in {@code a AS c, b AS c} — no column on the page (Splunk renames pair by
   * pair, left to right), so a later command may read it. A wildcard renames every field an event
   * has, extracted ones too: not replayed here ({@code RenameOverEvents}, {@link EveryFieldPlan}).
   */
  static boolean renamedExactly(RenameCommand rename) {
    return rename.renames().stream()
        .noneMatch(
            r ->
                Wildcard.hasWildcard(r.from())
                    || Wildcard.hasWildcard(r.to())
                    || r.from().equals(r.to()));
  }

  /**
   * A lookup's output fields: those named, else the table's columns but its keys; null when the
   * table is unknown.
   */
  static List<String> outputs(LookupCommand lookup, Function<String, List<String>> tableColumns) {
    if (!lookup.outputs().isEmpty()) {
      return lookup.outputs().stream().map(LookupCommand.FieldMapping::field).distinct().toList();
    }
    List<String> columns = tableColumns.apply(lookup.table());
    if (columns == null) {
      return null;
    }
    List<String> outputs = new ArrayList<>();
    for (String column : columns) {
      if (lookup.keys().stream().noneMatch(key -> key.column().equals(column))
          && !outputs.contains(column)) {
        outputs.add(column);
      }
    }
    return outputs;
  }

  /**
   * The index of the first {@code append} of a pipeline whose commands before it make an event
   * listing that keeps the events' own raw text ({@link ReduceCoverage#supportsOverEvents}) and
   * whose commands from it on keep the rows as they come ({@link #keepsListedRows}) or, with no
   * other {@code append} among them, also set, move or remove fields as {@code eval}, {@code rex},
   * {@code lookup}, a literal {@code rename} and {@code fields -} do ({@link #changesListedRows});
   * -1 when there is none or the pipeline is not of that form.
   */
  static int appendEndingListing(List<Command> pipeline) {
    for (int at = 0; at < pipeline.size(); at++) {
      if (pipeline.get(at) instanceof io.quarry.ql.ast.SubsearchCommand sub
          && sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.APPEND) {
        List<Command> after = pipeline.subList(at, pipeline.size());
        return ReduceCoverage.supportsOverEvents(pipeline.subList(0, at))
                && ReduceCoverage.supportsOverEventsWithOwnText(pipeline)
                && (after.stream().allMatch(ListedCommands::keepsListedRows)
                    || after.subList(1, after.size()).stream()
                        .allMatch(c -> keepsEvents(c) || changesListedRows(c)))
            ? at
            : -1;
      }
    }
    return -1;
  }

  /**
   * Whether a command after an event listing's {@code append} sets, moves or removes fields on
   * every row as {@link ListedFields} replays it: it lays its change over an event and over a
   * subsearch's row alike (a new field listed last, one set to null no longer listed), so the
   * listing replays it over both ({@link EventListing#withOtherRows}). Not {@code
   * eventstats}/{@code streamstats}, whose groups span both kinds of rows.
   */
  static boolean changesListedRows(Command command) {
    return command instanceof io.quarry.ql.ast.EvalCommand
        || command instanceof io.quarry.ql.ast.RexCommand
        || command instanceof io.quarry.ql.ast.LookupCommand
        || command instanceof io.quarry.ql.ast.RenameCommand
        || command instanceof ProjectCommand project
            && project.kind() == ProjectCommand.Kind.REMOVE;
  }

  /**
   * Whether a command after an event listing's {@code append} keeps each row with the fields it
   * lists, so that the pages of rows after it, paged again as the collector pages rows, are the row
   * engine's: another {@code append}, a filter (a {@code search} of bare words too: an event's
   * {@code _raw} there is its own, the subsearch's rows match none), a cut or a reordering.
   */
  static boolean keepsListedRows(Command command) {
    return command instanceof io.quarry.ql.ast.SubsearchCommand sub
            && sub.kind() == io.quarry.ql.ast.SubsearchCommand.Kind.APPEND
        || keepsEvents(command)
        || command instanceof io.quarry.ql.ast.SearchCommand;
  }

  /**
   * Whether a command after an event listing keeps its rows events, with the fields they have: it
   * filters ({@code where}, a {@code search} of comparisons, {@code dedup}), cuts ({@code head}) or
   * reorders ({@code sort}) them, so the listing's columns are still the events' own ({@link
   * EventListing}). A command that sets or removes fields ({@code eval}, {@code rename}, {@code
   * fields -}, {@code bin}, plugin commands) changes which fields a row has, row by row: after a
   * listing only those {@link ListedFields} replays run on pages.
   */
  static boolean keepsEvents(Command command) {
    return command instanceof HeadCommand
        || command instanceof SortCommand
        || command instanceof DedupCommand
        || command instanceof io.quarry.ql.ast.ReorderCommand
        || (command instanceof io.quarry.ql.ast.WhereCommand
                || command instanceof io.quarry.ql.ast.SearchCommand)
            && PageChain.supportsOverEvents(List.of(command));
  }
}
