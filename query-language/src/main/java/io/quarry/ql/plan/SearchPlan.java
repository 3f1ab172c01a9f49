package io.quarry.ql.plan;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.HeadCommand;
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
 *     an index scan; then the indexes, time range and filter are unused, except for a command over
 *     metric indexes ({@code mstats}), which reads the indexes named, in the time range, the series
 *     that pass the filter
 * @param messages what the search's answer says about how it was planned (an index the user may not
 *     search was left out, …)
 * @param expandedQuery the query as it runs once its subsearches were replaced by their results
 *     (what a job shows), when it had any
 * @param indexedFieldsOnly whether events are read only for what the index holds ({@code tstats}):
 *     a field that is neither a default nor an index-time field has no value, and no event's text
 *     is read
 * @param subsearchesCollected what the query's subsearches wrote ({@code collect}) while it was
 *     planned — they ran then — for the search's statistics and audit event
 */
public record SearchPlan(
    List<String> indexPatterns,
    long earliestMicros,
    long latestMicros,
    Optional<SearchExpression> filter,
    List<Command> pipeline,
    Optional<Command> generator,
    List<String> messages,
    Optional<String> expandedQuery,
    boolean indexedFieldsOnly,
    Collected subsearchesCollected) {

  public SearchPlan {
    requireNonNull(expandedQuery, "expandedQuery is null");
    requireNonNull(subsearchesCollected, "subsearchesCollected is null");
    indexPatterns = List.copyOf(requireNonNull(indexPatterns, "indexPatterns is null"));
    requireNonNull(filter, "filter is null");
    pipeline = List.copyOf(requireNonNull(pipeline, "pipeline is null"));
    requireNonNull(generator, "generator is null");
    messages = List.copyOf(requireNonNull(messages, "messages is null"));
  }

  /**
   * The largest number of events the pipeline can consume before it stops asking, if bounded
   * ({@link Long#MAX_VALUE} if not): a leading chain of {@code head} commands (with no reordering
   * command before it) bounds the scan.
   */
  public long eventLimit() {
    long limit = Long.MAX_VALUE;
    for (Command command : pipeline) {
      if (command instanceof HeadCommand head) {
        limit = Math.min(limit, head.limit());
      } else {
        break;
      }
    }
    return limit;
  }

  /** A plan whose query had no subsearch. */
  public SearchPlan(
      List<String> indexPatterns,
      long earliestMicros,
      long latestMicros,
      Optional<SearchExpression> filter,
      List<Command> pipeline,
      Optional<Command> generator,
      List<String> messages) {
    this(
        indexPatterns,
        earliestMicros,
        latestMicros,
        filter,
        pipeline,
        generator,
        messages,
        Optional.empty(),
        false,
        Collected.NONE);
  }

  /**
   * A copy with the query as it runs after its subsearches were expanded, their messages added and
   * what they wrote ({@code collected}).
   */
  public SearchPlan withSubsearches(String expanded, List<String> more, Collected collected) {
    List<String> all = new java.util.ArrayList<>(messages);
    all.addAll(more);
    return new SearchPlan(
        indexPatterns,
        earliestMicros,
        latestMicros,
        filter,
        pipeline,
        generator,
        all,
        Optional.of(expanded),
        indexedFieldsOnly,
        collected);
  }

  /** A plan without messages. */
  public SearchPlan(
      List<String> indexPatterns,
      long earliestMicros,
      long latestMicros,
      Optional<SearchExpression> filter,
      List<Command> pipeline,
      Optional<Command> generator) {
    this(indexPatterns, earliestMicros, latestMicros, filter, pipeline, generator, List.of());
  }

  /**
   * A copy reading other indexes, with {@code more} messages added (a runtime restricts a plan to
   * what its user may read this way).
   */
  public SearchPlan withIndexes(List<String> newIndexPatterns, List<String> more) {
    List<String> all = new java.util.ArrayList<>(messages);
    all.addAll(more);
    return new SearchPlan(
        newIndexPatterns,
        earliestMicros,
        latestMicros,
        filter,
        pipeline,
        generator,
        all,
        expandedQuery,
        indexedFieldsOnly,
        subsearchesCollected);
  }

  /**
   * A copy that reads only what the index holds ({@code tstats}): default and index-time fields,
   * never a search-time extraction from an event's text.
   */
  public SearchPlan withIndexedFieldsOnly() {
    return new SearchPlan(
        indexPatterns,
        earliestMicros,
        latestMicros,
        filter,
        pipeline,
        generator,
        messages,
        expandedQuery,
        true,
        subsearchesCollected);
  }

  /** A copy whose per-event filter is also {@code required} (ANDed in). */
  public SearchPlan withRequiredFilter(SearchExpression required) {
    SearchExpression combined =
        filter
            .<SearchExpression>map(
                existing -> new SearchExpression.And(List.of(existing, required)))
            .orElse(required);
    return new SearchPlan(
        indexPatterns,
        earliestMicros,
        latestMicros,
        Optional.of(combined),
        pipeline,
        generator,
        messages,
        expandedQuery,
        indexedFieldsOnly,
        subsearchesCollected);
  }

  /**
   * A message per search pattern with a leading wildcard ({@code *admin}, {@code uri=*.php}), in
   * the search expression or a later {@code search} command: such a pattern cannot seek in the term
   * index, so every term is checked against it — allowed, but slow on a large index. A lone {@code
   * *} (everything) is not one.
   */
  public List<String> slowPatternMessages() {
    List<String> messages = new java.util.ArrayList<>();
    filter.ifPresent(expression -> leadingWildcards(expression, messages));
    for (Command command : pipeline) {
      if (command instanceof io.quarry.ql.ast.SearchCommand search) {
        search.expression().ifPresent(expression -> leadingWildcards(expression, messages));
      }
    }
    return messages;
  }

  private static void leadingWildcards(SearchExpression expression, List<String> messages) {
    switch (expression) {
      case SearchExpression.Term term -> {
        if (!term.phrase()) { // a quoted phrase's * is a character, not a wildcard
          slow(term.text(), term.position(), messages);
        }
      }
      case SearchExpression.Comparison comparison -> {
        if (comparison.operator() == io.quarry.ql.ast.ComparisonOperator.EQ
            || comparison.operator() == io.quarry.ql.ast.ComparisonOperator.NE) {
          slow(comparison.value(), comparison.position(), messages); // only = and != match patterns
        }
      }
      case SearchExpression.In in -> in.values().forEach(v -> slow(v, in.position(), messages));
      case SearchExpression.And and -> and.operands().forEach(o -> leadingWildcards(o, messages));
      case SearchExpression.Or or -> or.operands().forEach(o -> leadingWildcards(o, messages));
      case SearchExpression.Not not -> leadingWildcards(not.operand(), messages);
      case SearchExpression.SubsearchTerm sub -> {}
    }
  }

  private static void slow(
      String pattern, io.quarry.ql.parser.Position position, List<String> messages) {
    if (pattern.length() > 1
        && pattern.startsWith("*")
        && !pattern.chars().allMatch(c -> c == '*')) {
      messages.add(
          "'"
              + pattern
              + "' (line "
              + position.line()
              + ", column "
              + position.column()
              + ") starts with a wildcard: every indexed term is checked against it, which is"
              + " slow over large indexes; give the start of the word if you can");
    }
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
