package io.quarry.server.search;

import io.quarry.ql.ast.Command;
import io.quarry.ql.engine.aggregation.PageAggregator;
import io.quarry.ql.exec.EventText;
import io.quarry.ql.exec.PageChain;
import io.quarry.ql.exec.PageReduce;
import io.quarry.ql.exec.ReduceCoverage;
import java.util.List;

/**
 * How the map side of a batch aggregation on pages ({@link PageBatch}) runs, as planned: the
 * leading {@code rex} commands the source runs ({@code fused}), then whether the rest has page
 * stages ({@code onPages}, reading {@code sourceFields} from storage; if not, the search runs
 * time-ordered); whether the commands after {@code stats} have page stages ({@code reduceOnPages},
 * {@link PageReduce}); whether the source's pages carry each event's own raw text ({@code ownText},
 * {@link EventText#withOwnText}) for a bare word after a command that changed {@code _raw}; which
 * source fields the aggregation groups by their segment ordinals ({@code byOrdinal}, {@link
 * #byOrdinal}).
 */
record PageShape(
    int fused,
    boolean onPages,
    List<String> sourceFields,
    boolean reduceOnPages,
    boolean ownText,
    List<String> byOrdinal) {

  /**
   * The rule that groups a {@code stats} by the segment ordinals of its by-field: {@code stats} (no
   * wildcard field) by one field, straight after the search (no command before it) and no function
   * reading that field — so only the aggregation's group keys see the column. Its pages may then
   * hold, once the scan decoded a segment's dictionary of a keyword index-time field whole, each
   * event's segment ordinal into that whole dictionary ({@link OrdinalColumn}), one dictionary per
   * segment: the aggregation keeps its groups by dictionary entry ({@code
   * aggregation.EntryPartial}: states by entry met, an {@code int} per ordinal, for a dictionary of
   * more than 1,024 entries), the partials of one segment merge by entry and each group's text is
   * hashed once, when the groups are handed over — not a page entry, a copied text and a hash per
   * event. Where the field is not such a column (a search-time field, a block without it, a
   * dictionary not decoded) the pages are as before; partials of other segments merge by text. Not
   * a field the search's filter reads ({@code filterFields}: its check would meet a segment's whole
   * dictionary per page) nor a default field ({@code host}, {@code source} …: never a column of
   * ordinals), so the plan ({@code explain}) names only what the run groups by ordinal. Empty when
   * the rule does not apply.
   */
  static List<String> byOrdinal(
      List<Command> filters, Command aggregation, java.util.Collection<String> filterFields) {
    if (!filters.isEmpty()
        || !(aggregation instanceof io.quarry.ql.ast.StatsCommand stats)
        || stats.groupBy().size() != 1
        || !io.quarry.ql.engine.aggregation.HashAggregationOperator.supports(stats)) {
      return List.of();
    }
    String by = stats.groupBy().get(0);
    if (filterFields.contains(by) || EventListing.DEFAULT_ORDER.contains(by)) {
      return List.of();
    }
    boolean read =
        stats.aggregations().stream().anyMatch(a -> a.field().equals(java.util.Optional.of(by)));
    return read ? List.of() : List.of(by);
  }

  /**
   * The shape of a batch search on pages: {@code filters} before {@code stats}, {@code reduce}
   * after it; {@code filterFields} the fields the search's filter reads.
   */
  static PageShape of(
      List<Command> filters,
      Command aggregation,
      List<Command> reduce,
      java.util.Collection<String> filterFields) {
    int fused = EventPages.fusedPrefix(filters);
    List<Command> chained = filters.subList(fused, filters.size());
    boolean overEvents = PageChain.supportsOverEvents(chained); // the chain takes events
    // a bare word after eval _raw=… or a lookup without OUTPUT: each event's own text carried
    // along (not into an every-field listing, which lays out only the events' fields)
    boolean ownText =
        !overEvents
            && PageChain.supportsOverEventsWithOwnText(chained)
            && !PageAggregator.inputFields(aggregation).contains("*");
    boolean onPages = overEvents || ownText;
    java.util.Set<String> sourceFields =
        onPages
            ? io.quarry.ql.exec.InputFields.of(chained, PageAggregator.inputFields(aggregation))
            : java.util.Set.of();
    if (ownText) {
      sourceFields = new java.util.LinkedHashSet<>(sourceFields);
      sourceFields.add(io.quarry.codecs.store.EventFields.RAW);
    }
    return new PageShape(
        fused,
        onPages,
        List.copyOf(sourceFields),
        ReduceCoverage.supportsOverResults(reduce),
        ownText,
        onPages ? byOrdinal(filters, aggregation, filterFields) : List.of());
  }
}
