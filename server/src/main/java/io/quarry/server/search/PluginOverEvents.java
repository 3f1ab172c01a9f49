package io.quarry.server.search;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.PluginOverlayStage;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A time-ordered event listing through plugin commands that lay their output over the events
 * ({@code index=web | fillnull value=0}, {@code index=web | where … | mvexpand x}, {@code index=web
 * | eval y=1 | fillnull value=0}, {@code | rex … | mvexpand t}), on pages as the row engine answers
 * it: there the plugin adapter hands the operator batches of the rows the commands before it leave
 * — events, with the fields {@code eval}, {@code rex}, {@code lookup}, {@code rename} … set, moved
 * or removed over them — with every field asked for, and answers each output row as its row with
 * the operator's new or replaced columns laid over it (the row's own fields otherwise, listed
 * without extraction). Here the commands before them run as stages marking what they set, and the
 * rows they leave are laid out as those batches (an every-field {@link EventListing} of {@code
 * 1,024} rows a page replaying their changes, {@link ListedFields}; past a {@code rename}, whose
 * rows discover no search-time field, only the fields each row lists), carrying each row's fields
 * as it lists them, those it lost and its event's own text; {@link PluginOverlayStage} runs the
 * operator over them as the adapter does, and each row's fields as the overlay row lists them are
 * written out ({@link #listedNames}: {@link EventOverlays#plugin} replayed there, where the columns
 * hold what the plugin commands left). Commands after them that keep the rows or change their
 * fields as {@link ListedFields} replays ({@code | eval y=1}, {@code | where …}, {@code | rex …})
 * run as stages marking what they set, and a listing replays their changes over those names and
 * pages the answer as the collector would.
 */
final class PluginOverEvents {
  private final EventListing batches;
  private final List<PluginOverlayStage> plugins = new java.util.ArrayList<>();
  private final PageReduce after; // the commands after the plugin commands
  private final EventListing answer;
  private final StageStats stages;
  private final int first; // the first plugin command's stage
  private boolean full;

  /**
   * @param pipeline the search's commands
   * @param at the first plugin command's index in it ({@link #firstPlugin})
   * @param listed the changes of the commands before the plugin commands, then of those after them
   *     ({@link ListedFields}, numbered by their stages: {@link ListedFields#followedBy})
   * @param read the fields the source reads
   */
  PluginOverEvents(
      List<Command> pipeline,
      int at,
      ListedFields listed,
      Set<String> read,
      Sourcetypes sourcetypes,
      boolean extract,
      SearchControl control,
      Evaluator evaluator,
      StageStats stages,
      PageBatch.Results results) {
    this.stages = stages;
    this.first = at;
    int end = pluginsEnd(pipeline, at);
    ListedFields before = listed.stagesBefore(at);
    ListedFields after = listed.stagesFrom(end);
    this.answer =
        new EventListing(
                read,
                sourcetypes,
                extract,
                false,
                after,
                control,
                results::add,
                () -> results.maxRows() - results.collector().rows(),
                SearchService.PAGE_SIZE)
            .fromListedNames();
    this.after =
        new PageReduce(
            pipeline.subList(end, pipeline.size()),
            evaluator,
            answer::add,
            stages,
            end,
            SearchService.PAGE_SIZE,
            true, // they mark what they set (ListedFields)
            after.valuesMarked());
    for (Command command : pipeline.subList(at, end)) {
      plugins.add(
          new PluginOverlayStage(
              (PluginCommand) command,
              evaluator,
              Set.of(
                  ListingColumns.LISTED_NAMES,
                  ListingColumns.CLEARED_NAMES,
                  PluginOverlayStage.OVERLAID,
                  ListingColumns.EVENT_RAW,
                  ListingColumns.EVENT_SOURCETYPE)));
    }
    // the rows the commands before them leave, as the adapter batches them: every field of the
    // event with their changes laid over it — a renamed row discovers no search-time field, so
    // past a rename only the fields it lists (RenameOperator's rows)
    this.batches =
        new EventListing(
                read,
                sourcetypes,
                extract,
                !before.renames(),
                before,
                control,
                this::batch,
                () -> Long.MAX_VALUE,
                SearchService.PAGE_SIZE)
            .carryingListedNames()
            .carryingEventText();
  }

  /**
   * The index of the first plugin command when {@code pipeline} is commands that keep the events or
   * change their fields as {@link ListedFields} replays them ({@code eval}, {@code rex}, {@code
   * lookup}, a literal {@code rename} without a name renamed on, {@code fields -} …, whose stages
   * mark what they set), then plugin commands that lay their output over them ({@link
   * PluginOverlayStage#overlays}) — those after the first naming the fields they read (one reading
   * every field would take the columns in the order the row adapter's batch of overlay rows has
   * them, which this does not replay) —, then commands with page stages that are no plugin command
   * (a {@code search} of bare words among them matching the events' own text, carried from the
   * batches as on rows an overlay row asks its event, whatever the plugin laid over {@code _raw}),
   * whose changes {@link ListedFields} must replay (the caller asks it); else -1.
   *
   * @param tableColumns a lookup table's columns by name, for a {@code lookup} without {@code
   *     OUTPUT} before the plugin commands ({@link ListedFields#of(List,
   *     java.util.function.Function)})
   */
  static int firstPlugin(
      List<Command> pipeline, java.util.function.Function<String, List<String>> tableColumns) {
    int at = 0;
    while (at < pipeline.size() && !(pipeline.get(at) instanceof PluginCommand)) {
      at++;
    }
    List<Command> before = pipeline.subList(0, at);
    if (at == pipeline.size()
        || !(ReduceCoverage.supportsOverEvents(before)
            || ReduceCoverage.supportsOverEventsWithOwnText(before))
        || ListedFields.of(before, tableColumns) == null
        || before.stream().anyMatch(PluginOverEvents::renamesOn)) {
      return -1;
    }
    int end = pluginsEnd(pipeline, at);
    List<Command> after = pipeline.subList(end, pipeline.size());
    return end > at
            && after.stream().noneMatch(PluginCommand.class::isInstance)
            && ReduceCoverage.supportsOverEventsWithOwnText(after)
        ? at
        : -1;
  }

  /**
   * Whether a command is a {@code rename} of a name it also renames another to ({@code a AS b, b AS
   * c}): {@link ListedFields} replays it only where no later command reads that name, and a plugin
   * command reading every field does.
   */
  private static boolean renamesOn(Command command) {
    if (!(command instanceof io.quarry.ql.ast.RenameCommand rename)) {
      return false;
    }
    Set<String> to = new java.util.HashSet<>();
    rename.renames().forEach(r -> to.add(r.to()));
    return rename.renames().stream().anyMatch(r -> to.contains(r.from()));
  }

  /** The index past the plugin commands from {@code at} on that {@link #firstPlugin} takes. */
  static int pluginsEnd(List<Command> pipeline, int at) {
    int end = at;
    while (end < pipeline.size()
        && PluginOverlayStage.overlays(pipeline.get(end))
        && (end == at
            || !((PluginCommand) pipeline.get(end)).bound().requiredFields().contains("*"))) {
      end++;
    }
    return end;
  }

  /** Takes the leading commands' pages of events; false once the answer is full. */
  boolean add(Page page) {
    return batches.add(page) && !full;
  }

  private boolean batch(Page events) {
    // carrying the events' own _raw and sourcetype: what the listing extracts from and a bare word
    // matches
    push(0, events);
    return !full;
  }

  /** A page into plugin command {@code i} (past the last: the answer). */
  private void push(int i, Page page) {
    if (i == plugins.size()) {
      Page listed = listedNames(page);
      full = full || !after.add(listed);
      return;
    }
    long started = System.nanoTime();
    plugins.get(i).add(page, out -> push(i + 1, out));
    stages.counted(first + i, page.positionCount(), System.nanoTime() - started);
  }

  /** The events are over: the batches held, each operator's last output, then the answer's. */
  void finish() {
    batches.finish();
    for (int i = 0; i < plugins.size(); i++) {
      int next = i + 1;
      long started = System.nanoTime();
      plugins.get(i).finish(out -> push(next, out));
      stages.timed(first + i, System.nanoTime() - started);
    }
    after.finish();
    answer.finish();
  }

  void close() {
    plugins.forEach(PluginOverlayStage::close);
    after.close();
  }

  /**
   * The plugin commands' output with each row's fields as the row adapter's overlay row lists them
   * in {@link ListingColumns#FIELD_NAMES} — those its row listed before them ({@link
   * ListingColumns#LISTED_NAMES}: the default fields, the event's index-time ones, the changes of
   * the commands before them), then the fields the commands laid over it ({@link
   * PluginOverlayStage#OVERLAID}) as {@link EventOverlays#plugin} replays them — and the fields it
   * lost, before them too, in {@link ListingColumns#CLEARED}.
   */
  private static Page listedNames(Page page) {
    EventOverlays overlays = EventOverlays.plugin();
    Block own = page.block(ListingColumns.LISTED_NAMES);
    Block lost = page.block(ListingColumns.CLEARED_NAMES);
    BytesBlock.Builder names = BytesBlock.builder(page.positionCount());
    BytesBlock.Builder cleared = BytesBlock.builder(page.positionCount());
    for (int p = 0; p < page.positionCount(); p++) {
      List<String> listed = new ArrayList<>();
      for (Object name : own.getValues(p)) {
        listed.add((String) name);
      }
      int position = p;
      Set<String> gone = new LinkedHashSet<>();
      for (Object name : lost.getValues(p)) {
        gone.add((String) name);
      }
      overlays.apply(
          listed,
          field -> {
            Block block = page.block(field);
            return block != null && !block.isNull(position);
          },
          field -> {
            Block block = page.block(field);
            return block == null ? List.of() : block.getValues(position);
          },
          gone);
      append(names, listed);
      append(cleared, List.copyOf(gone));
    }
    return page.withColumn(ListingColumns.FIELD_NAMES, names.build())
        .withColumn(ListingColumns.CLEARED, cleared.build());
  }

  private static void append(BytesBlock.Builder builder, List<String> values) {
    switch (values.size()) {
      case 0 -> builder.appendNull();
      case 1 -> builder.append(values.getFirst());
      default -> {
        builder.beginPositionEntry();
        values.forEach(builder::append);
        builder.endPositionEntry();
      }
    }
  }
}
