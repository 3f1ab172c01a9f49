/**
 * Hash aggregation over pages: one class per kind of {@code stats} function, each holding its state
 * for every group in arrays by dense group id ({@link
 * io.quarry.ql.engine.aggregation.GroupingFunction}), the group keys ({@link
 * io.quarry.ql.engine.aggregation.GroupKeys}; by one field over a dictionary shared beyond a page,
 * a segment's, the groups of its entries kept apart until handed over by text, or unhashed where
 * the entries met ascend by bytes ({@link io.quarry.ql.engine.aggregation.EntryPartial}; its states
 * in place, a group per entry, {@link io.quarry.ql.engine.aggregation.InPlaceEntries}; the unhashed
 * hand-over, {@link io.quarry.ql.engine.aggregation.SortedEntries}), and the operator that feeds
 * pages through them and emits the answer as typed pages ({@link
 * io.quarry.ql.engine.aggregation.HashAggregationOperator}, its partials' merge ({@link
 * io.quarry.ql.engine.aggregation.StatsMerge}: by entry, taken whole or key by key; {@link
 * io.quarry.ql.engine.aggregation.SharedMerge}: key by key on several threads) and its answer
 * ({@link io.quarry.ql.engine.aggregation.AggregationOutput}: sort and pages) shared with a pool's
 * threads by {@link io.quarry.ql.engine.aggregation.SharedTasks}, which stops starting tasks once a
 * cancelled search's stop check says so); the same keys and states fed position by position and
 * read at any moment for {@code eventstats} and {@code streamstats} ({@link
 * io.quarry.ql.engine.aggregation.RunningGroups}; what both read of a page besides the functions'
 * fields, {@link io.quarry.ql.engine.aggregation.StatsInput}). {@code stats}, {@code eventstats}
 * and {@code streamstats} share these states, so their arithmetic agrees. {@code stats} with
 * wildcard fields ({@code avg(*)}) is one such operator per matched field, joined by group at the
 * end ({@link io.quarry.ql.engine.aggregation.WildcardAggregation}). The other page aggregations
 * ({@link io.quarry.ql.engine.aggregation.TopAggregation}, {@code exec.ChartAggregation}) share the
 * batch contract ({@link io.quarry.ql.engine.aggregation.PageAggregator}; a transforming plugin
 * command is planned as one but runs as chain operators, {@code exec.TransformingPlugin}); a source
 * that counts in place of rows (the index shortcuts, {@link
 * io.quarry.ql.engine.aggregation.CountShortcut}) hands them intermediate state as pages ({@link
 * io.quarry.ql.engine.aggregation.CountPages}), and a source that aggregates a search-time field
 * itself hands {@code stats} its counts and {@code _time} extremes by key ({@link
 * io.quarry.ql.engine.aggregation.TimeExtremeStates}).
 */
package io.quarry.ql.engine.aggregation;
