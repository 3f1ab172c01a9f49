package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.command.Operator;
import io.quarry.plugin.api.data.Page;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.exec.ChartAggregation;
import io.quarry.ql.exec.Evaluator;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.TransformingPlugin;
import java.time.ZoneId;
import java.util.List;

/**
 * An aggregation on pages in batch mode ({@code stats}: {@link HashAggregationOperator}, with
 * wildcard fields {@link WildcardAggregation}; {@code top}/{@code rare}: {@link TopAggregation};
 * {@code timechart}/{@code chart}: {@link ChartAggregation}): one partial per search thread fed the
 * pages of the segment slices it scans, partials merged into the final one, whose {@link #finish}
 * makes its answer pages. The search runs it without knowing which command it is ({@code
 * server.search.PageBatch}). A transforming plugin command is planned as an aggregation ({@link
 * #supports}, {@link #inputFields}) but runs as chain operators, never as one of these ({@link
 * TransformingPlugin}: its map side the last step of each slice's chain, its reduce side the first
 * of the reduce chain).
 */
public interface PageAggregator extends Operator {

  /** Whether {@code command} is an aggregation with a page implementation. */
  static boolean supports(Command command) {
    return switch (command) {
      case StatsCommand stats ->
          HashAggregationOperator.supports(stats) || WildcardAggregation.supports(stats);
      case TopCommand top -> true;
      case TimechartCommand timechart -> ChartAggregation.supports(timechart);
      case ChartCommand chart -> ChartAggregation.supports(chart);
      case PluginCommand plugin -> TransformingPlugin.supports(plugin);
      default -> false;
    };
  }

  /**
   * The final aggregation of {@code command} (one {@link #supports} accepts, not a transforming
   * plugin command) in {@code evaluator}'s search: its time zone and memory.
   */
  static PageAggregator of(Command command, Evaluator evaluator, int pageSize) {
    return of(command, evaluator.zone(), evaluator.memory(command.name()), pageSize);
  }

  /**
   * The final aggregation of {@code command} (one {@link #supports} accepts, not a transforming
   * plugin command); times are bucketed in {@code zone}.
   */
  static PageAggregator of(Command command, ZoneId zone, MemoryTracker memory, int pageSize) {
    return switch (command) {
      case StatsCommand stats when WildcardAggregation.supports(stats) ->
          new WildcardAggregation(stats, memory, pageSize);
      case StatsCommand stats -> new HashAggregationOperator(stats, memory, pageSize);
      case TopCommand top -> new TopAggregation(top, memory, pageSize);
      case TimechartCommand timechart -> new ChartAggregation(timechart, zone, memory, pageSize);
      case ChartCommand chart -> ChartAggregation.chart(chart, zone, memory, pageSize);
      default -> throw new IllegalArgumentException(command.name() + " has no page aggregation");
    };
  }

  /**
   * The fields the aggregation of {@code command} reads from its input; {@code *} among them when
   * it reads every field a wildcard matches ({@link WildcardAggregation}) or a plugin command reads
   * every field.
   */
  static List<String> inputFields(Command command) {
    return switch (command) {
      case StatsCommand stats when WildcardAggregation.supports(stats) ->
          WildcardAggregation.inputFields(stats);
      case StatsCommand stats -> HashAggregationOperator.inputFields(stats);
      case TopCommand top -> TopAggregation.inputFields(top);
      case TimechartCommand timechart -> ChartAggregation.inputFields(timechart);
      case ChartCommand chart -> ChartAggregation.inputFields(chart);
      case PluginCommand plugin when TransformingPlugin.supports(plugin) ->
          TransformingPlugin.inputFields(plugin);
      default -> throw new IllegalArgumentException(command.name() + " has no page aggregation");
    };
  }

  /** A partial of the same command, its memory counted against the same search. */
  PageAggregator newPartial();

  /** Adds a partial's groups (made by {@link #newPartial}) and empties it. */
  void merge(PageAggregator partial);

  /**
   * The pages added so far to this aggregation and to its partials whose groups were kept by entry
   * of a dictionary shared beyond a page ({@link EntryPartial}; a search's {@code pages_by_entry});
   * 0 for an aggregation that never does.
   */
  default long pagesByEntry() {
    return 0;
  }

  /**
   * Of {@link #pagesByEntry}, the pages added to states kept a group per dictionary entry, found by
   * the row's ordinal ({@link InPlaceEntries}; a search's {@code pages_in_place}); 0 for an
   * aggregation that never does.
   */
  default long pagesInPlace() {
    return 0;
  }

  /**
   * The groups of a dictionary's entries whose keys this aggregation never hashed when its answer
   * was last built ({@link EntryPartial}'s hand-over with no lookup among those keys after; a
   * search's {@code groups_handed_whole}); 0 for an aggregation that never does.
   */
  default long groupsHandedWhole() {
    return 0;
  }

  /**
   * Merges as {@link #merge} does, sharing the work with up to {@code helpers} threads of {@code
   * parallel} (the search pool, once the scan is over); once {@code stop} says so (the search was
   * cancelled) it starts no further work and throws a {@link
   * java.util.concurrent.CancellationException}, the merge left half done (the aggregation is to be
   * closed). By default on the caller alone, without checking {@code stop}.
   */
  default void mergeOn(
      PageAggregator partial,
      java.util.concurrent.Executor parallel,
      int helpers,
      java.util.function.BooleanSupplier stop) {
    merge(partial);
  }

  /** The answer for the input so far as pages, keeping the state (a preview). */
  List<Page> snapshot();

  /**
   * The input is over: makes the answer now (as {@link #finish} would), sharing the work with up to
   * {@code helpers} threads of {@code parallel}; {@link #finish} then has nothing left to do. Once
   * {@code stop} says so (the search was cancelled) it starts no further work and throws a {@link
   * java.util.concurrent.CancellationException}. By default nothing: {@link #finish} makes the
   * answer on the thread that pulls it.
   */
  default void finishOn(
      java.util.concurrent.Executor parallel,
      int helpers,
      java.util.function.BooleanSupplier stop) {}

  /**
   * Adds counts a source made in place of rows ({@link CountPages}, for an aggregation {@link
   * CountShortcut#of} accepts): each position stands for its count column's rows in its group, as
   * if those rows had been added. An aggregation that cannot take counts throws.
   */
  default void addIntermediateInput(Page counts) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " takes no counts");
  }
}
