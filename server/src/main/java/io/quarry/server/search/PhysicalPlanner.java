package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.plugin.api.command.CommandKind;
import io.quarry.ql.ast.ChartCommand;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.EvalCommand;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.ast.TimechartCommand;
import io.quarry.ql.ast.TopCommand;
import io.quarry.ql.ast.WhereCommand;
import io.quarry.ql.plan.SearchPlan;
import java.io.IOException;
import java.util.List;

/**
 * The physical choices a plan gets over the event store, made the same way for running it ({@link
 * SearchExecution}) and for {@code explain} ({@link SearchExplain}): the filter as a term-index
 * query, whether the pipeline splits into a parallel map side and a reduce ({@link BatchPlan}, with
 * the filter as the blocks decide it), the time-ordered page stages, and whether a leading {@code
 * dedup} lets the scan skip repeats.
 */
final class PhysicalPlanner {
  private final EventStore store;
  private final io.quarry.server.lookups.LookupStore lookups;

  PhysicalPlanner(EventStore store, io.quarry.server.lookups.LookupStore lookups) {
    this.store = requireNonNull(store, "store is null");
    this.lookups = requireNonNull(lookups, "lookups is null");
  }

  /**
   * The plan's filter as a term-index query; over indexes that hold blocks, checked per event (a
   * term finds a block, not an event, so nothing about an event is known from the index alone).
   */
  LuceneTranslator.Translation translate(SearchPlan plan, List<String> indexes) {
    LuceneTranslator.Translation translation =
        plan.filter().map(LuceneTranslator::translate).orElse(LuceneTranslator.Translation.ALL);
    return indexes.stream().anyMatch(name -> store.index(name).holdsBlocks())
        ? translation.perEvent()
        : translation;
  }

  /**
   * Where a pipeline can split into a parallel map side and a final reduce: the index of its first
   * aggregator ({@code stats}, {@code timechart}, {@code chart}, {@code top}, {@code rare}) when
   * only row-local commands ({@code search}, {@code eval}, {@code where}, {@code rex}, {@code
   * lookup}, {@code fields}/{@code table}, {@code rename}, {@code bin} with a span, streaming
   * plugin commands) come before it, else -1; a transforming plugin command is an aggregator. Such
   * pipelines do not need events in time order.
   */
  static int batchAggregatorIndex(List<Command> pipeline) {
    for (int i = 0; i < pipeline.size(); i++) {
      Command command = pipeline.get(i);
      if (command instanceof StatsCommand
          || command instanceof TimechartCommand
          || command instanceof ChartCommand
          || command instanceof TopCommand
          || command instanceof PluginCommand plugin && plugin.kind() == CommandKind.TRANSFORMING) {
        return i;
      }
      if (!(command instanceof SearchCommand
          || command instanceof EvalCommand
          || command instanceof WhereCommand
          || command instanceof RexCommand
          || command instanceof io.quarry.ql.ast.LookupCommand
          || command instanceof io.quarry.ql.ast.ProjectCommand
          || command instanceof io.quarry.ql.ast.RenameCommand
          || command instanceof io.quarry.ql.ast.BinCommand bin && bin.rowLocal()
          || command instanceof PluginCommand plugin && plugin.kind() == CommandKind.STREAMING)) {
        return -1;
      }
    }
    return -1;
  }

  /**
   * The time-ordered page stages of {@code pipeline}, at the page size of the searches starting
   * now.
   *
   * @throws io.quarry.server.http.ApiException 400 {@code SEARCH_NOT_SUPPORTED} when a command has
   *     no page stage
   */
  TimeOrderedShape timeOrderedShape(List<Command> pipeline) {
    TimeOrderedShape shape =
        TimeOrderedShape.of(pipeline, SearchService.pageSize(), this::lookupColumns);
    if (shape == null) {
      throw SearchFailures.notSupported(pipeline);
    }
    return shape;
  }

  /** A lookup table's columns, null when there is no such table. */
  private List<String> lookupColumns(String table) {
    io.quarry.ql.exec.LookupTable found = lookups.table(table);
    return found == null ? null : found.columns();
  }

  /**
   * The field of a leading {@code dedup f} that keeps one event per value in arrival order (no
   * count above 1, {@code consecutive} or {@code sortby}), whose repeats a scan may skip unread;
   * null otherwise.
   */
  static String dedupFieldFirst(List<Command> pipeline) {
    if (!pipeline.isEmpty()
        && pipeline.get(0) instanceof io.quarry.ql.ast.DedupCommand dedup
        && dedup.count() == 1
        && dedup.fields().size() == 1
        && !dedup.consecutive()
        && dedup.sortBy().isEmpty()) {
      return dedup.fields().get(0);
    }
    return null;
  }

  /** The batch plan of a search whose command {@code aggregatorAt} is its aggregation. */
  BatchPlan batchPlan(
      SearchPlan plan,
      List<String> indexes,
      LuceneTranslator.Translation translation,
      int aggregatorAt) {
    return BatchPlan.of(
        plan,
        translation,
        aggregatorAt,
        indexes.stream().anyMatch(name -> !store.index(name).holdsBlocks()),
        blockCondition(plan, indexes));
  }

  /**
   * The filter as the blocks of {@code indexes} decide it ({@link BlockCondition}), knowing which
   * fields they hold value counts of; null when no index holds blocks or it cannot be decided.
   */
  private BlockCondition blockCondition(SearchPlan plan, List<String> indexes) {
    if (indexes.stream().noneMatch(name -> store.index(name).holdsBlocks())) {
      return null;
    }
    BlockCondition condition = BlockCondition.of(plan.filter());
    return condition == null
        ? null
        : condition.countedFields(
            field -> anyBlocks(indexes, field, io.quarry.codecs.store.BlockValueCounts::anyIn),
            field ->
                anyBlocks(indexes, field, io.quarry.codecs.store.BlockValueCounts::anyCodesIn));
  }

  /** Whether some block bucket of the indexes has {@code what} of {@code field}. */
  private boolean anyBlocks(List<String> indexes, String field, BlockFieldProbe what) {
    return indexes.stream()
        .anyMatch(
            name -> {
              try {
                return what.test(store.index(name), field);
              } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
              }
            });
  }

  /** A question about the block buckets of an index store. */
  @FunctionalInterface
  private interface BlockFieldProbe {
    boolean test(io.quarry.codecs.store.IndexStore store, String field) throws IOException;
  }
}
