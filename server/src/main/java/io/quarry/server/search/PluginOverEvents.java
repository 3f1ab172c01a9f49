package io.quarry.server.search;

import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.PluginOverlayStage;
import io.quarry.ql.exec.ReduceCoverage;
import io.quarry.ql.exec.StageStats;
import io.quarry.server.sourcetype.Sourcetypes;
import java.util.List;
import java.util.Set;

/**
 * A time-ordered event listing ending in a plugin command with nothing after it ({@code index=web |
 * fillnull value=0}, {@code index=web | where … | mvexpand x}), on pages as the row engine answers
 * it: there the plugin adapter hands the operator batches of events with every field asked for and
 * answers each output row as its event with the operator's new or replaced columns laid over it
 * (the event's own fields otherwise, listed without extraction). Here the events the leading
 * commands keep are laid out as those batches (an every-field {@link EventListing} of {@code 1,024}
 * rows a page, carrying each event's index-time field names), {@link PluginOverlayStage} runs the
 * operator over them as the adapter does, and a plain listing replays per row what the overlay row
 * lists ({@link EventOverlays#plugin}) and pages the answer as the collector would.
 */
final class PluginOverEvents {
  private final EventListing batches;
  private final List<PluginOverlayStage> plugins = new java.util.ArrayList<>();
  private final EventListing answer;
  private final StageStats stages;
  private final int first; // the first plugin command's stage
  private boolean full;

  /**
   * @param commands the plugin commands, the pipeline's last
   * @param at the first one's index in the pipeline
   * @param read the fields the source reads
   */
  PluginOverEvents(
      List<Command> commands,
      int at,
      Set<String> read,
      Sourcetypes sourcetypes,
      boolean extract,
      SearchControl control,
      Evaluator evaluator,
      StageStats stages,
      PageBatch.Results results) {
    this.stages = stages;
    this.first = at;
    this.answer =
        new EventListing(
                read,
                sourcetypes,
                extract,
                false,
                control,
                results::add,
                () -> results.maxRows() - results.collector().rows(),
                SearchService.PAGE_SIZE)
            .overlaid(EventOverlays.plugin());
    for (Command command : commands) {
      plugins.add(
          new PluginOverlayStage(
              (PluginCommand) command,
              evaluator,
              Set.of(EventListing.FIELD_NAMES, PluginOverlayStage.OVERLAID)));
    }
    this.batches =
        new EventListing(
                read,
                sourcetypes,
                extract,
                true,
                control,
                this::batch,
                () -> Long.MAX_VALUE,
                SearchService.PAGE_SIZE)
            .carryingFieldNames();
  }

  /**
   * The index of the first plugin command when {@code pipeline} is commands that keep the events,
   * then plugin commands that lay their output over them ({@link PluginOverlayStage#overlays}) to
   * the end — those after the first naming the fields they read (one reading every field would take
   * the columns in the order the row adapter's batch of overlay rows has them, which this does not
   * replay) —; else -1.
   */
  static int firstPlugin(List<Command> pipeline) {
    int at = 0;
    while (at < pipeline.size() && TimeOrderedShape.keepsEvents(pipeline.get(at))) {
      at++;
    }
    if (at == pipeline.size() || !ReduceCoverage.supportsOverEvents(pipeline.subList(0, at))) {
      return -1;
    }
    for (int i = at; i < pipeline.size(); i++) {
      if (!PluginOverlayStage.overlays(pipeline.get(i))
          || i > at && ((PluginCommand) pipeline.get(i)).bound().requiredFields().contains("*")) {
        return -1;
      }
    }
    return at;
  }

  /** Takes the leading commands' pages of events; false once the answer is full. */
  boolean add(Page page) {
    return batches.add(page) && !full;
  }

  private boolean batch(Page events) {
    push(0, events);
    return !full;
  }

  /** A page into plugin command {@code i} (past the last: the answer). */
  private void push(int i, Page page) {
    if (i == plugins.size()) {
      full = full || !answer.add(page);
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
    answer.finish();
  }

  void close() {
    plugins.forEach(PluginOverlayStage::close);
  }
}
