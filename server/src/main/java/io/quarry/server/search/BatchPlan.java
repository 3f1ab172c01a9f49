package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.PluginCommand;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.Aggregator;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.plan.SearchPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.lucene.search.Query;

/**
 * The physical choices of a batch search, made once from the logical plan and its term-index
 * translation — the same object runs the search ({@link SearchService}) and explains it, so {@code
 * explain} prints what runs instead of deciding again.
 *
 * <p>Which engine: {@link Engine#INDEX} when the aggregation right after the search only counts,
 * the index query is exact or has a sure part and some index searched stores events (not blocks)
 * (the term index and keyword doc values answer without reading events, and the remaining
 * candidates run as rows), else {@link Engine#PAGES} when the aggregation has a page implementation
 * ({@link PageAggregator#supports}: {@code stats} whose every function has one, {@code top}, {@code
 * rare}) (the commands before it run as the page source's work and page stages, {@link
 * #pageShape}), else {@link Engine#ROWS}.
 *
 * @param aggregatorAt the index of the aggregation in the pipeline
 * @param pageShape on {@link Engine#PAGES}, how the map side runs; else null
 * @param countedField {@code stats count by f}, {@code top f}: f's keyword doc values counted per
 *     segment; else null
 * @param timedField {@code timechart count by f}: counted per time bucket and value; else null
 * @param countedUpFront {@code stats count}: the documents of this query are counted by the term
 *     index before the scan, which then reads only the other candidates; else null
 * @param sure the part of an inexact index query that needs no per-event check, or null
 * @param blockCondition on {@link Engine#INDEX} over indexes that hold blocks: the filter as block
 *     value counts decide it ({@link BlockCounting}); else null
 */
record BatchPlan(
    int aggregatorAt,
    Engine engine,
    PageBatch.Shape pageShape,
    String countedField,
    String timedField,
    Query countedUpFront,
    Query sure,
    BlockCondition blockCondition) {

  /** Which engine runs the map side. */
  enum Engine {
    INDEX,
    PAGES,
    ROWS;

    String label() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The batch plan of {@code plan}, whose command {@code aggregatorAt} is the aggregation; {@code
   * probe} makes an aggregator of a command only to ask what it counts (never fed a row); {@code
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
      Function<Command, Aggregator> probe,
      BlockCondition blocks) {
    List<Command> filters = plan.pipeline().subList(0, aggregatorAt);
    Command aggregator = plan.pipeline().get(aggregatorAt);
    boolean exact = plan.filter().isEmpty() || translation.exact();
    Query sure = exact ? null : translation.sure();
    // counting from the index needs every candidate's answer from the index: no command between
    // the search and the aggregation, and an exact query or a sure part (or, for blocks, a filter
    // their value counts decide)
    boolean countable =
        filters.isEmpty()
            && (blocks != null || (indexCounts && (exact || sure != null)))
            && !(aggregator instanceof PluginCommand);
    Aggregator counting = countable ? probe.apply(aggregator) : null;
    String counted = counting == null ? null : counting.countsOnlyByField();
    String timed = counting == null ? null : counting.countsByTimeAndField();
    boolean rowsOnly = counting != null && counting.countsOnlyRows();
    Query upFront =
        rowsOnly && (exact || sure != null) ? (exact ? translation.query() : sure) : null;
    if (!indexCounts && blocks != null) {
      // only blocks: a count by a field they hold no counts of would read every event as a row
      if (counted != null && !blocks.countsAlong(counted)) {
        counted = null;
      }
      if (timed != null && !blocks.countsAlong(timed)) {
        timed = null;
      }
    }
    if (!exact && sure == null) {
      // only blocks count: where their counts decide the filter along the counted field; every
      // event document is checked (a sure part matching nothing)
      if (counted != null && !blocks.countsAlong(counted)) {
        counted = null;
      }
      if (timed != null && !blocks.countsAlong(timed)) {
        timed = null;
      }
      if (counted != null || timed != null || rowsOnly) {
        return new BatchPlan(
            aggregatorAt,
            Engine.INDEX,
            null,
            counted,
            timed,
            null,
            new org.apache.lucene.search.MatchNoDocsQuery("only blocks count"),
            blocks);
      }
    } else if (counted != null || timed != null || upFront != null) {
      return new BatchPlan(aggregatorAt, Engine.INDEX, null, counted, timed, upFront, sure, blocks);
    }
    if (PageBatch.enabled() && PageAggregator.supports(aggregator)) {
      return new BatchPlan(
          aggregatorAt,
          Engine.PAGES,
          PageBatch.shape(
              filters,
              aggregator,
              plan.pipeline().subList(aggregatorAt + 1, plan.pipeline().size())),
          null,
          null,
          null,
          sure,
          null);
    }
    return new BatchPlan(aggregatorAt, Engine.ROWS, null, null, null, null, sure, null);
  }

  /**
   * The explain entries of this plan: {@code engine}; on pages, the fields the source reads, the
   * {@code rex} commands it runs itself and the page stages (or the row commands before the pages);
   * from the index, what is counted.
   */
  Map<String, Object> explain(SearchPlan plan) {
    Map<String, Object> explain = new LinkedHashMap<>();
    explain.put("engine", engine.label());
    List<String> names =
        plan.pipeline().subList(0, aggregatorAt).stream().map(SplText::command).toList();
    switch (engine) {
      case PAGES -> {
        if (pageShape.onPages()) {
          explain.put("page_source_fields", pageShape.sourceFields());
          explain.put("in_source", names.subList(0, pageShape.fused()));
          explain.put("page_stages", names.subList(pageShape.fused(), names.size()));
        } else {
          explain.put("row_stages_before_pages", names);
        }
        explain.put("reduce_on_pages", pageShape.reduceOnPages());
      }
      case INDEX -> {
        if (countedField != null) {
          explain.put("counted_by_field", countedField);
        }
        if (timedField != null) {
          explain.put("counted_by_time_and_field", timedField);
        }
        if (countedUpFront != null) {
          explain.put("counted_up_front", countedUpFront.toString());
        }
        if (blockCondition != null) {
          explain.put("counted_from_block_values", true);
        }
      }
      case ROWS -> {}
    }
    explain.put("indexed_fields_only", plan.indexedFieldsOnly());
    return explain;
  }
}
