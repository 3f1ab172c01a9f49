package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.EventStore;
import io.quarry.ql.ast.RexCommand;
import io.quarry.ql.engine.aggregation.CountShortcut;
import io.quarry.ql.parser.SplText;
import io.quarry.ql.plan.SearchPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plan's {@code explain}: the choices {@link PhysicalPlanner} makes for it, without running it.
 */
final class SearchExplain {
  private final EventStore store;
  private final PhysicalPlanner physical;

  SearchExplain(EventStore store, PhysicalPlanner physical) {
    this.store = requireNonNull(store, "store is null");
    this.physical = requireNonNull(physical, "physical is null");
  }

  /**
   * What {@link SearchService#run} would do with a plan, without running it: the indexes, the time
   * range, the search filter, the term-index query and whether it is exact, the execution mode, and
   * which commands run on the map side (per segment slice, in parallel) and which after the merge.
   * Expressions and commands are written in SPL ({@link SplText}), as the planner left them ({@code
   * sort -count | head 10} keeps 10 rows: {@code sort 10 -count}); the term-index query is Lucene's
   * text.
   */
  Map<String, Object> explain(SearchPlan plan) {
    Map<String, Object> explain = new LinkedHashMap<>();
    plan.generator().ifPresent(generator -> explain.put("generator", SplText.command(generator)));
    explain.put("indexes", store.resolve(plan.indexPatterns()));
    explain.put("earliest", timeOrNull(plan.earliestMicros(), Long.MIN_VALUE));
    explain.put("latest", timeOrNull(plan.latestMicros(), Long.MAX_VALUE));
    // the first search without its index= and time bounds, which are above
    explain.put("filter", plan.filter().map(SplText::search).orElse(null));
    LuceneTranslator.Translation translation =
        physical.translate(plan, store.resolve(plan.indexPatterns()));
    explain.put("index_query", translation.query().toString());
    boolean exact = translation.exact() || plan.filter().isEmpty();
    explain.put("exact_index_query", exact);
    // candidates that surely match: counted without reading them when counting is all that follows
    explain.put(
        "sure_index_query",
        exact || translation.sure() == null ? null : translation.sure().toString());
    explain.put("per_event_filter", exact ? null : plan.filter().map(SplText::search).orElse(null));
    List<String> names = plan.pipeline().stream().map(SplText::command).toList();
    int aggregatorAt = PhysicalPlanner.batchAggregatorIndex(plan.pipeline());
    BatchPlan batch =
        aggregatorAt >= 0 && plan.generator().isEmpty() // a generator's results run in order
            ? physical.batchPlan(
                plan, store.resolve(plan.indexPatterns()), translation, aggregatorAt)
            : null;
    if (batch != null && !batch.runsTimeOrdered()) {
      explain.put("mode", "batch");
      List<String> map = new ArrayList<>(names.subList(0, aggregatorAt + 1));
      map.set(aggregatorAt, names.get(aggregatorAt) + " (partial)");
      explain.put("map", map);
      List<String> reduce = new ArrayList<>();
      reduce.add(names.get(aggregatorAt) + " (merge)");
      reduce.addAll(names.subList(aggregatorAt + 1, names.size()));
      explain.put("reduce", reduce);
      explain.putAll(batch.explain(plan));
      if (batch.engine() == BatchPlan.Engine.PAGES) {
        RexCommand counted =
            RexCounting.of(
                batch.pageShape(),
                plan.pipeline().subList(0, aggregatorAt),
                plan.pipeline().get(aggregatorAt),
                BatchPlan.checksEvents(plan, translation),
                plan.indexedFieldsOnly());
        if (counted != null) { // the scan counts the rex's field itself (RexCounting)
          explain.put(
              "counted_by_rex", CountShortcut.of(plan.pipeline().get(aggregatorAt)).field());
        }
        String keyValue =
            batch.counting() == null && counted == null
                ? KeyValueStates.of(
                    batch.pageShape(),
                    plan.pipeline().subList(0, aggregatorAt),
                    plan.pipeline().get(aggregatorAt),
                    BatchPlan.checksEvents(plan, translation),
                    plan.indexedFieldsOnly())
                : null;
        if (keyValue != null) { // the scan aggregates the key=value field itself
          explain.put("aggregated_by_key_value", keyValue);
          // decided per block and per event in the scan, not here (KeyValueStates): the plan
          // does not know which sourcetypes an index's events carry
          explain.put("aggregated_by_key_value_where", KeyValueStates.WHERE);
        }
      }
    } else {
      explain.put("mode", "time-ordered");
      explain.put("pipeline", names);
      long limit = plan.eventLimit();
      explain.put("event_limit", limit == Long.MAX_VALUE ? null : limit);
      explain.put(
          "dedup_skips_seen", exact ? PhysicalPlanner.dedupFieldFirst(plan.pipeline()) : null);
      TimeOrderedShape onPages =
          plan.generator().isEmpty()
              ? physical.timeOrderedShape(plan.pipeline()) // refused as running it would be
              : null;
      explain.put("engine", "pages"); // one engine since session 27; the key stays one release
      if (onPages != null) {
        // an event listing: each event's own fields; every field; or the fields read
        explain.put(
            "page_source",
            onPages.listing() ? "events" : onPages.everyField() ? "every_field" : "fields");
        if (onPages.aggregateAt() >= 0) { // after commands that need time order: one aggregation
          explain.put("page_aggregation", names.get(onPages.aggregateAt()));
        }
        explain.put("page_source_fields", onPages.sourceFields());
        explain.put("page_size", onPages.pageSize());
      }
    }
    return explain;
  }

  private static String timeOrNull(long micros, long unbounded) {
    return micros == unbounded
        ? null
        : java.time.Instant.ofEpochSecond(
                Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000)
            .toString();
  }
}
