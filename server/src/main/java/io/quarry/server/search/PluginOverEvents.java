package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.SubsearchCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.OverlayCommands;
import io.quarry.ql.exec.PageCommands;
import io.quarry.ql.exec.PluginOverlayOperator;
import io.quarry.ql.exec.ReduceChain;
import io.quarry.ql.exec.ReduceCoverage;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A time-ordered event listing through plugin commands that lay their output over the events
 * ({@code index=web | fillnull value=0}, {@code index=web | where … | mvexpand x}, {@code index=web
 * | eval y=1 | fillnull value=0}, {@code | rex … | mvexpand t}), on pages: the operator takes
 * batches of the rows the commands before it leave — events, with the fields {@code eval}, {@code
 * rex}, {@code lookup}, {@code rename} … set, moved or removed over them — with every field asked
 * for, and answers each output row as its row with the operator's new or replaced columns laid over
 * it (the row's own fields otherwise, listed without extraction). The commands before them run as
 * stages marking what they set, and the rows they leave are laid out as those batches (an
 * every-field {@link EventListing} replaying their changes, {@link ListedFields}, of {@code 1,024}
 * rows a page or the smallest {@code head}'s count, {@link EventListings#batches}; past a {@code
 * rename} too, whose rows keep every other field), carrying each row's fields as it lists them,
 * those it lost and its event's own text; {@link PluginOverlayOperator}s run the operators over
 * them (steps of the search's one pulled chain, {@link ReduceChain}), and each row's fields as the
 * overlay row lists them are written out ({@link OverlayNames#listedNames}: {@link
 * EventOverlays#plugin} replayed there, where the columns hold what the plugin commands left).
 * Commands after them that keep the rows or change their fields as {@link ListedFields} replays
 * ({@code | eval y=1}, {@code | where …}, {@code | rex …}) run as stages marking what they set, and
 * a listing replays their changes over those names and pages the answer as the collector would.
 * {@code append} and {@code join} without fields count as plugin commands here ({@link
 * #runsAsPlugin}), run as the built-in page commands {@link PageCommands#of} makes of them. A
 * wildcard {@code rename} (with the renames right after it) among them is a run of its own ({@link
 * #startsRun}): its stages rename the every-field pages' columns, and each row's every name is
 * renamed as {@link RenameOverEvents} renames it, the renamed row then listing every field it can
 * yield.
 */
final class PluginOverEvents {
  /** The hidden columns that pass along the events' pages but never reach a plugin operator. */
  private static final Set<String> HIDDEN =
      Set.of(
          ListingColumns.LISTED_NAMES,
          ListingColumns.CLEARED_NAMES,
          ListingColumns.DISCOVERED_NAMES,
          ListingColumns.FIELD_NAMES,
          ListingColumns.CLEARED,
          PluginOverlayOperator.OVERLAID,
          ListingColumns.EVENT_RAW,
          ListingColumns.EVENT_SOURCETYPE,
          io.quarry.ql.exec.EventText.OWN_RAW);

  private final List<Command> pipeline;
  private final int at;
  private final ListedFields listed;
  private final EventListings listings;
  private final Evaluator evaluator;
  private final PageResults results;

  /**
   * @param pipeline the search's commands
   * @param at the first plugin command's index in it ({@link #firstPlugin})
   * @param listed the changes of the commands before the plugin commands, then of those after each
   *     run of them ({@link #changes}: {@link ListedFields}, numbered by their stages)
   * @param listings makes the batches' and the answer's listings
   */
  PluginOverEvents(
      List<Command> pipeline,
      int at,
      ListedFields listed,
      EventListings listings,
      PageResults results) {
    this.pipeline = pipeline;
    this.at = at;
    this.listed = listed;
    this.listings = listings;
    this.evaluator = listings.evaluator();
    this.results = results;
  }

  /**
   * {@code before} (the stages of the commands before the plugin commands, marking what they set)
   * followed by the runs, in order, each run as steps of that one chain: the listing that lays out
   * the rows before it as every-field batches, its plugin commands' overlay operators (each counted
   * as its stage) with their answer listed ({@link OverlayNames}) — or its renames, each row's
   * names renamed —, then the commands after it up to the next run, marking what they set; the
   * answer's listing its last step, its pages the answer.
   */
  io.quarry.ql.exec.PageReduce chain(ReduceChain before) {
    List<int[]> bounds = runs(pipeline, at);
    try {
      for (int k = 0; k < bounds.size(); k++) {
        int[] run = bounds.get(k);
        before.then(batches(k, bounds));
        if (RenameOverEvents.renamesByWildcard(pipeline.get(run[0]))) {
          // the renames rename the every-field pages' columns, and each row's every name as the
          // rename renames a row's fields (RenameOverEvents.listedNames)
          RenameOverEvents.renaming(before, pipeline.subList(run[0], run[1]), run[0], evaluator);
        } else {
          for (int c = run[0]; c < run[1]; c++) {
            before.then(new PluginOverlayOperator(asPlugin(pipeline.get(c)), evaluator, HIDDEN), c);
          }
          before.then(OverlayNames.step());
        }
        ListedFields after = listed.stagesFrom(run[1]).stagesBefore(run[2]);
        // they mark what they set (ListedFields)
        before.marking(pipeline.subList(run[1], run[2]), run[1], after.valuesMarked());
      }
    } catch (RuntimeException e) {
      throw before.closeBuilt(e);
    }
    return before
        .then(listings.answer(listed.stagesFrom(bounds.getLast()[1]), results))
        .into(results::add);
  }

  /**
   * The listing that lays out the rows before run {@code k} as batches of every field: a step of
   * the chain.
   */
  private EventListing batches(int k, List<int[]> bounds) {
    int[] run = bounds.get(k);
    EventListing batches;
    if (k == 0) {
      // the rows the commands before them leave, in batches of rows: every field of
      // the event with their changes laid over it (a rename's too: a renamed row keeps every
      // other field)
      batches = listings.batches(true, listed.stagesBefore(at));
    } else {
      // the overlay rows the run before leaves, the commands after it replayed over them, as
      // batches of rows again: every field each row has
      ListedFields between = listed.stagesFrom(bounds.get(k - 1)[1]).stagesBefore(run[0]);
      batches = listings.batches(false, between).fromDiscoveredNames();
    }
    // carrying each row's events' own _raw and sourcetype: what the listing extracts from and a
    // bare word matches
    return batches.carryingListedNames().carryingDiscoveredNames().carryingEventText();
  }

  /**
   * The index of the first plugin command when {@code pipeline} is commands that keep the events or
   * change their fields as {@link ListedFields} replays them ({@code eval}, {@code rex}, {@code
   * lookup}, a literal {@code rename}, {@code fields -} …, whose stages mark what they set), then
   * runs of plugin commands that lay their output over the rows ({@link OverlayCommands#overlays})
   * — in a run, those after the first naming the fields they read; a plugin command after other
   * commands or reading every field starts the next run, which takes the rows again in batches of
   * every field —, each followed by commands with page stages that are no plugin command (a {@code
   * search} of bare words among them matching the events' own text, carried from the batches,
   * whatever the plugin laid over {@code _raw}), whose changes {@link ListedFields} must replay
   * (the caller asks it: {@link #changes}); else -1.
   *
   * @param tableColumns a lookup table's columns by name, for a {@code lookup} without {@code
   *     OUTPUT} before the plugin commands ({@link ListedFields#of(List,
   *     java.util.function.Function)})
   */
  static int firstPlugin(
      List<Command> pipeline, java.util.function.Function<String, List<String>> tableColumns) {
    int at = 0;
    while (at < pipeline.size() && !startsRun(pipeline.get(at))) {
      at++;
    }
    List<Command> before = pipeline.subList(0, at);
    if (at == pipeline.size()
        || !startsAt(pipeline, at)
        || !(ReduceCoverage.supportsOverEvents(before)
            || ReduceCoverage.supportsOverEventsWithOwnText(before))
        || ListedFields.of(before, tableColumns) == null) {
      return -1;
    }
    List<int[]> runs = runs(pipeline, at);
    for (int k = 0; k < runs.size(); k++) {
      int[] run = runs.get(k);
      List<Command> after = pipeline.subList(run[1], run[2]);
      if (run[1] == run[0] || !ReduceCoverage.supportsOverEventsWithOwnText(after)) {
        return -1;
      }
    }
    return at;
  }

  /**
   * The changes of the commands before the plugin commands from {@code at} on and after each run of
   * them, in one {@link ListedFields} numbered by their stages (taken apart again by stage); null
   * where one of them has no replay.
   */
  static ListedFields changes(
      List<Command> pipeline,
      int at,
      java.util.function.Function<String, List<String>> tableColumns) {
    ListedFields all = ListedFields.of(pipeline.subList(0, at), tableColumns);
    for (int[] run : runs(pipeline, at)) {
      ListedFields after = ListedFields.of(pipeline.subList(run[1], run[2]), tableColumns);
      if (all == null || after == null) {
        return null;
      }
      all = all.followedBy(after.fromStage(run[1]));
    }
    return all;
  }

  /**
   * The runs of plugin commands from {@code at} on: per run, the index of its first plugin command,
   * the index past its last ({@link #pluginsEnd}), and the index past the commands after it that
   * are no plugin command (the next run's first, or the pipeline's end).
   */
  private static List<int[]> runs(List<Command> pipeline, int at) {
    List<int[]> runs = new ArrayList<>();
    int start = at;
    while (start < pipeline.size()) {
      int end =
          RenameOverEvents.renamesByWildcard(pipeline.get(start))
              ? RenameOverEvents.end(pipeline, start)
              : pluginsEnd(pipeline, start);
      int next = end;
      while (next < pipeline.size() && !startsRun(pipeline.get(next))) {
        next++;
      }
      runs.add(new int[] {start, end, next});
      if (end == start) {
        break; // a plugin command that does not lay its output over the rows: no run
      }
      start = next;
    }
    return runs;
  }

  /** The index past the run of plugin commands from {@code at} on ({@link #firstPlugin}). */
  private static int pluginsEnd(List<Command> pipeline, int at) {
    int end = at;
    while (end < pipeline.size()
        && overlays(pipeline.get(end))
        && (end == at || !readsEveryField(pipeline.get(end)))) {
      end++;
    }
    return end;
  }

  /**
   * Whether {@code command} starts a run ({@link #runs}): a command run as a plugin command ({@link
   * #runsAsPlugin}) or a wildcard {@code rename}, which renames every field a row can yield ({@link
   * RenameOverEvents}) — the row's every name, as a plugin command's overlay row lists it.
   */
  private static boolean startsRun(Command command) {
    return runsAsPlugin(command) || RenameOverEvents.renamesByWildcard(command);
  }

  /**
   * Whether this class runs the commands from {@code at} on ({@link #firstPlugin}'s index, the
   * every-field listing's place): a plugin command laying its output over the rows there, or a
   * wildcard {@code rename} with a command run as a plugin command after it (a wildcard rename
   * followed by commands {@link ListedFields} replays is {@link RenameOverEvents}' alone).
   */
  static boolean startsAt(List<Command> pipeline, int at) {
    Command command = pipeline.get(at);
    return overlays(command)
        || RenameOverEvents.renamesByWildcard(command)
            && pipeline.subList(at + 1, pipeline.size()).stream()
                .anyMatch(PluginOverEvents::runsAsPlugin);
  }

  /**
   * Whether this class runs {@code command} as a plugin command: a plugin command, or an {@code
   * append} or a {@code join} without fields, run as the built-in page commands {@link
   * PageCommands#of} makes of them (overlay rows: a joined row is its input row with the
   * subsearch's columns laid over it, an appended row one of the operator's own making).
   */
  static boolean runsAsPlugin(Command command) {
    return command instanceof PluginCommand || overlaidSubsearch(command);
  }

  /**
   * Whether {@code command}'s operator lays its output over its input rows ({@link
   * OverlayCommands#overlays}): so do {@code append} (its input rows pass through, its subsearch's
   * rows follow as rows of its own, as a third-party command run centrally may emit) and {@code
   * join} without fields ({@link #runsAsPlugin}).
   */
  static boolean overlays(Command command) {
    return OverlayCommands.overlays(command) || overlaidSubsearch(command);
  }

  /** Whether {@code command}'s operator reads every field of its batch. */
  private static boolean readsEveryField(Command command) {
    return command instanceof PluginCommand plugin
        ? plugin.bound().requiredFields().contains("*")
        : command instanceof SubsearchCommand sub && sub.kind() == SubsearchCommand.Kind.JOIN;
  }

  /** An {@code append}, or a {@code join} without fields (on the fields both sides have). */
  private static boolean overlaidSubsearch(Command command) {
    return command instanceof SubsearchCommand sub
        && (sub.kind() == SubsearchCommand.Kind.APPEND
            || sub.kind() == SubsearchCommand.Kind.JOIN && sub.join().fields().isEmpty());
  }

  /** The plugin command this class runs for {@code command} ({@link #runsAsPlugin}). */
  private static PluginCommand asPlugin(Command command) {
    return command instanceof PluginCommand plugin ? plugin : PageCommands.of(command);
  }
}
