package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.plan.SearchPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.search.Query;

/**
 * The physical choices of a batch search, made once from the logical plan and its term-index
 * translation — the same object runs the search ({@link SearchService}) and explains it, so {@code
 * explain} prints what runs instead of deciding again.
 *
 * <p>Which engine: {@link Engine#INDEX} when the aggregation right after the search only counts
 * ({@link CountShortcut#of}), the index query is exact or has a sure part and some index searched
 * stores events (not blocks) (the term index and keyword doc values answer without reading events:
 * {@link IndexCounting}, a source of page-aggregation state, and the remaining candidates run as
 * pages into the same aggregation), else {@link Engine#PAGES} when the aggregation has a page
 * implementation ({@link PageAggregator#supports}: {@code stats} whose every function has one,
 * {@code top}, {@code rare}, {@code timechart}, {@code chart}, a transforming plugin command) (the
 * commands before it run as the page source's work and page stages, {@link #pageShape}); an
 * aggregation with no page implementation is refused ({@link SearchFailures#notSupported}).
 *
 * @param aggregatorAt the index of the aggregation in the pipeline
 * @param pageShape how the map side (the remainder, from the index) and the reduce side run
 * @param counting on {@link Engine#INDEX}, what the index counts: {@code stats count} (documents;
 *     those of {@code countedUpFront} before the scan), {@code stats count by f} and {@code top f}
 *     (f's keyword doc values per segment), {@code timechart count by f} (per time bucket and
 *     value), {@code stats count by f1, f2 …} (per combination of the fields' ordinals, {@link
 *     JointCounts}; over blocks from their value codes, {@link BlockGroupCounting}); else null
 * @param countedUpFront {@code stats count}: the documents of this query are counted by the term
 *     index before the scan, which then reads only the other candidates; else null
 * @param sure the part of an inexact index query that needs no per-event check, or null
 * @param blockCondition on {@link Engine#INDEX} over indexes that hold blocks: the filter as block
 *     value counts decide it ({@link BlockCounting}); else null
 */
record BatchPlan(
    int aggregatorAt,
    Engine engine,
    PageShape pageShape,
    CountShortcut counting,
    Query countedUpFront,
    Query sure,
    BlockCondition blockCondition) {

  /** Which engine runs the map side. */
  enum Engine {
    INDEX,
    PAGES;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * Whether the scan checks each event it reads against {@code plan}'s filter: there is one and the
   * index query ({@code translation}) does not answer it exactly. The one place this is decided:
   * the batch's event filter ({@link SearchExecution}), and so whether the scan may count a {@code
   * rex}'s field itself ({@link RexCounting#of}), and what {@link SearchExplain} says of both.
   */
  static boolean checksEvents(SearchPlan plan, LuceneTranslator.Translation translation) {
    return plan.filter().isPresent() && !translation.exact();
  }

  /**
   * The batch plan of {@code plan}, whose command {@code aggregatorAt} is the aggregation; {@code
   * indexCounts} is false when every index searched stores events as blocks, where the scan offers
   * no per-event counting shortcut (no doc values per event); {@code blocks} is the filter as
   * blocks decide it from their value counts when the indexes hold blocks ({@link
   * BlockCondition#of}; null: they hold none, or it cannot be decided per block): then blocks count
   * on the index path.
   */
  static BatchPlan of(
      SearchPlan plan,
      LuceneTranslator.Translation translation,
      int aggregatorAt,
      boolean indexCounts,
      BlockCondition blocks) {
    List<Command> filters = plan.pipeline().subList(0, aggregatorAt);
    Command aggregator = plan.pipeline().get(aggregatorAt);
    List<Command> reduce = plan.pipeline().subList(aggregatorAt + 1, plan.pipeline().size());
    boolean exact = plan.filter().isEmpty() || translation.exact();
    List<String> filterFields =
        plan.filter().map(f -> EventFilter.of(f).fields()).orElse(List.of());
    Query sure = exact ? null : translation.sure();
    // counting from the index needs every candidate's answer from the index: no command between
    // the search and the aggregation, and an exact query or a sure part (or, for blocks, a filter
    // their value counts decide); the counts feed the page aggregation
    if (!PageAggregator.supports(aggregator)) {
      throw SearchFailures.notSupported(List.of(aggregator));
    }
    boolean countable =
        filters.isEmpty()
            && (blocks != null || (indexCounts && (exact || sure != null)))
            && !(aggregator instanceof PluginCommand);
    CountShortcut counting = countable ? CountShortcut.of(aggregator) : null;
    boolean rowsOnly = counting != null && counting.kind() == CountShortcut.Kind.ROWS;
    Query upFront =
        rowsOnly && (exact || sure != null) ? (exact ? translation.query() : sure) : null;
    if (counting != null
        && !rowsOnly
        && blocks != null
        && (!indexCounts || (!exact && sure == null))
        && !counting.by().stream().allMatch(blocks::countsAlong)) {
      // only blocks count (only blocks are searched, or only they decide the filter): a count by a
      // field they hold no counts of would read every event
      counting = null;
    }
    if (counting != null) {
      PageShape shape = PageShape.of(filters, aggregator, reduce, filterFields);
      if (!exact && sure == null) {
        // only blocks count: where their counts decide the filter along the counted field; every
        // event document is checked (a sure part matching nothing)
        return new BatchPlan(
            aggregatorAt,
            Engine.INDEX,
            shape,
            counting,
            null,
            new org.apache.lucene.search.MatchNoDocsQuery("only blocks count"),
            blocks);
      }
      return new BatchPlan(aggregatorAt, Engine.INDEX, shape, counting, upFront, sure, blocks);
    }
    return new BatchPlan(
        aggregatorAt,
        Engine.PAGES,
        PageShape.of(filters, aggregator, reduce, filterFields),
        null,
        null,
        sure,
        null);
  }

  /**
   * Whether the search runs time-ordered instead of in parallel slices: the map side has no page
   * stage for a command before the aggregation (one reading every field an event has, {@code
   * addtotals}, {@code foreach}, {@code spath} …: the slices' pages hold only the fields named),
   * which the time-ordered page stages do have (the events' every-field listing, {@link
   * TimeOrderedShape}). The same events through the same commands, in one ordered stream.
   */
  boolean runsTimeOrdered() {
    return !pageShape.onPages();
  }

  /**
   * The explain entries of this plan: {@code engine}; on pages, the fields the source reads, the
   * {@code rex} commands it runs itself and the page stages; from the index, what is counted.
   */
  Map<String, Object> explain(SearchPlan plan) {
    Map<String, Object> explain = new LinkedHashMap<>();
    explain.put("engine", engine.label());
    List<String> names =
        plan.pipeline().subList(0, aggregatorAt).stream().map(SplText::command).toList();
    switch (engine) {
      case PAGES -> {
        explain.put("page_source_fields", pageShape.sourceFields());
        explain.put("in_source", names.subList(0, pageShape.fused()));
        explain.put("page_stages", names.subList(pageShape.fused(), names.size()));
        explain.put("reduce_on_pages", pageShape.reduceOnPages());
        if (!pageShape.byOrdinal().isEmpty()) {
          explain.put("grouped_by_ordinal", pageShape.byOrdinal());
        }
      }
      case INDEX -> {
        switch (counting.kind()) {
          case VALUES -> explain.put("counted_by_field", counting.field());
          case TIMED -> explain.put("counted_by_time_and_field", counting.field());
          case GROUPS -> explain.put("counted_by_fields", counting.by());
          case ROWS -> {}
        }
        if (countedUpFront != null) {
          explain.put("counted_up_front", countedUpFront.toString());
        }
        if (blockCondition != null) {
          explain.put("counted_from_block_values", true);
        }
        explain.put("reduce_on_pages", pageShape.reduceOnPages());
      }
    }
    explain.put("indexed_fields_only", plan.indexedFieldsOnly());
    return explain;
  }
}
