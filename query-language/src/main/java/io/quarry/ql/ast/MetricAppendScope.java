package io.quarry.ql.ast;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * What an {@code mstats append=true} later in a pipeline reads, resolved when the search is
 * planned, as the first command's indexes and time are: the metric indexes the user may read that
 * its where clause names, its time range (the job's, narrowed by the clause's {@code earliest=} /
 * {@code latest=}) and the rest of the clause as a series filter.
 */
public record MetricAppendScope(
    List<String> indexes,
    long earliestMicros,
    long latestMicros,
    Optional<SearchExpression> filter) {
  public MetricAppendScope {
    indexes = List.copyOf(indexes);
    requireNonNull(filter, "filter is null");
  }
}
