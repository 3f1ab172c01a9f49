package io.quarry.ql.plan;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.SearchExpression;
import java.util.List;
import java.util.Optional;

/**
 * What to run for a query.
 *
 * @param indexPatterns index names to read, possibly with {@code *} wildcards; matched
 *     case-insensitively against the store's indexes
 * @param earliestMicros inclusive lower time bound, epoch microseconds
 * @param latestMicros exclusive upper time bound, epoch microseconds
 * @param filter the rest of the first search expression, evaluated per event (and translated into a
 *     term-index query by the runtime where it can be)
 * @param pipeline the commands after the first search, run on the matching events in time order
 *     (newest first)
 * @param generator a generating command ({@code | inputlookup …}) that produces the rows instead of
 *     an index scan; then the indexes, time range and filter are unused
 */
public record SearchPlan(
    List<String> indexPatterns,
    long earliestMicros,
    long latestMicros,
    Optional<SearchExpression> filter,
    List<Command> pipeline,
    Optional<Command> generator) {

  public SearchPlan {
    indexPatterns = List.copyOf(requireNonNull(indexPatterns, "indexPatterns is null"));
    requireNonNull(filter, "filter is null");
    pipeline = List.copyOf(requireNonNull(pipeline, "pipeline is null"));
    requireNonNull(generator, "generator is null");
  }

  /** A plan that scans indexes. */
  public SearchPlan(
      List<String> indexPatterns,
      long earliestMicros,
      long latestMicros,
      Optional<SearchExpression> filter,
      List<Command> pipeline) {
    this(indexPatterns, earliestMicros, latestMicros, filter, pipeline, Optional.empty());
  }
}
