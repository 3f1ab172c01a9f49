package io.quarry.ql.plan;

import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.ComparisonOperator;
import io.quarry.ql.ast.Query;
import io.quarry.ql.ast.SearchCommand;
import io.quarry.ql.ast.SearchExpression;
import io.quarry.ql.ast.SearchExpression.Comparison;
import io.quarry.ql.parser.Position;
import io.quarry.ql.parser.QueryParseException;
import io.quarry.ql.time.TimeModifiers;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns a parsed query into a {@link SearchPlan}: the top-level {@code index=} and {@code
 * earliest=}/{@code latest=} terms of the first search choose indexes and the time range and leave
 * the expression; everything else stays as the per-event filter. Without {@code index=} a search
 * reads the default index {@code main}, as Splunk does.
 */
public final class SearchPlanner {
  public static final String DEFAULT_INDEX = "main";

  private final Instant now;
  private final ZoneId zone;

  public SearchPlanner(Instant now, ZoneId zone) {
    this.now = now;
    this.zone = zone;
  }

  /**
   * @param earliestMicros the job's own lower bound (from the API), or {@code Long.MIN_VALUE}
   * @param latestMicros the job's own upper bound (from the API), or {@code Long.MAX_VALUE}
   */
  public SearchPlan plan(Query query, long earliestMicros, long latestMicros) {
    return plan(query, earliestMicros, latestMicros, List.of(DEFAULT_INDEX));
  }

  /**
   * As above, reading {@code defaultIndexes} (names or patterns) when the search names no index (a
   * role's {@code srchIndexesDefault}).
   */
  public SearchPlan plan(
      Query query, long earliestMicros, long latestMicros, List<String> defaultIndexes) {
    List<Command> pipeline =
        FieldFormats.moveToEnd(
            EvaluatedAggregations.expand(
                topN(query.commands().subList(1, query.commands().size()))));
    Command head = query.commands().get(0);
    if (head instanceof io.quarry.ql.ast.TstatsCommand tstats) {
      return planTstats(
          query, tstats, List.of(), pipeline, earliestMicros, latestMicros, defaultIndexes);
    }
    if (head instanceof io.quarry.ql.ast.MetadataCommand
        || head instanceof io.quarry.ql.ast.EventCountCommand) {
      IndexSummaries.Planned planned = IndexSummaries.plan(head);
      return planTstats(
          query,
          planned.tstats(),
          planned.after(),
          pipeline,
          earliestMicros,
          latestMicros,
          defaultIndexes);
    }
    if (head instanceof io.quarry.ql.ast.DbinspectCommand dbinspect) {
      // generated from the store's buckets; its indexes restricted as a search's are
      return new SearchPlan(
          dbinspect.indexes().isEmpty() ? defaultIndexes : dbinspect.indexes(),
          earliestMicros,
          latestMicros,
          Optional.empty(),
          pipeline,
          Optional.of(head));
    }
    if (head instanceof io.quarry.ql.ast.MetricCommand metric) {
      // the where clause's index= and time modifiers as a search's; the rest filters series
      SearchPlan planned =
          planSearch(query, metric.where(), pipeline, earliestMicros, latestMicros, List.of());
      return new SearchPlan(
          planned.indexPatterns(),
          planned.earliestMicros(),
          planned.latestMicros(),
          planned.filter(),
          pipeline,
          Optional.of(head));
    }
    if (!(query.commands().get(0) instanceof SearchCommand first)) {
      // a generating command: its rows feed the pipeline, no index is read
      return new SearchPlan(
          List.of(),
          earliestMicros,
          latestMicros,
          java.util.Optional.empty(),
          pipeline,
          java.util.Optional.of(query.commands().get(0)));
    }
    return planSearch(
        query, first.expression(), pipeline, earliestMicros, latestMicros, defaultIndexes);
  }

  /**
   * {@code tstats}: the where-search, {@code _time} bucketed by its span, {@code stats}, then
   * {@code after} and the rest of the pipeline, reading only indexed fields.
   */
  private SearchPlan planTstats(
      Query query,
      io.quarry.ql.ast.TstatsCommand tstats,
      List<Command> after,
      List<Command> pipeline,
      long earliestMicros,
      long latestMicros,
      List<String> defaultIndexes) {
    List<Command> piped = new ArrayList<>();
    tstats
        .span()
        .ifPresent(
            span ->
                piped.add(
                    new io.quarry.ql.ast.BinCommand(
                        "_time",
                        Optional.of(span),
                        io.quarry.ql.ast.BinCommand.DEFAULT_BINS,
                        Optional.empty(),
                        java.util.OptionalDouble.empty(),
                        java.util.OptionalDouble.empty(),
                        "_time",
                        tstats.position())));
    piped.add(tstats.stats());
    piped.addAll(after);
    piped.addAll(pipeline);
    return planSearch(query, tstats.where(), piped, earliestMicros, latestMicros, defaultIndexes)
        .withIndexedFieldsOnly();
  }

  /** A plan reading indexes: {@code expression}'s index, time range and per-event filter. */
  private SearchPlan planSearch(
      Query query,
      Optional<SearchExpression> expression,
      List<Command> pipeline,
      long earliestMicros,
      long latestMicros,
      List<String> defaultIndexes) {
    List<SearchExpression> conjuncts = new ArrayList<>();
    expression.ifPresent(e -> flattenAnd(e, conjuncts));

    List<String> indexes = null;
    long earliest = earliestMicros;
    long latest = latestMicros;
    List<SearchExpression> rest = new ArrayList<>();
    for (SearchExpression conjunct : conjuncts) {
      if (conjunct instanceof Comparison c && c.operator() == ComparisonOperator.EQ) {
        String field = c.field().toLowerCase(Locale.ROOT);
        if (field.equals("earliest")) {
          earliest = Math.max(earliest, resolve(query, c));
          continue;
        }
        if (field.equals("latest")) {
          latest = Math.min(latest, resolve(query, c));
          continue;
        }
        if (field.equals("index") && indexes == null) {
          indexes = List.of(c.value());
          continue;
        }
      }
      if (conjunct instanceof SearchExpression.In in
          && in.field().equalsIgnoreCase("index")
          && indexes == null) {
        indexes = in.values();
        continue;
      }
      checkNoNestedTimeModifier(query, conjunct, false);
      rest.add(conjunct);
    }
    if (indexes == null) {
      indexes =
          rest.stream().anyMatch(SearchPlanner::mentionsIndex)
              ? List.of("*")
              : List.copyOf(defaultIndexes);
    }
    Optional<SearchExpression> filter =
        switch (rest.size()) {
          case 0 -> Optional.empty();
          case 1 -> Optional.of(rest.get(0));
          default -> Optional.of(new SearchExpression.And(rest));
        };
    return new SearchPlan(indexes, earliest, latest, filter, pipeline);
  }

  private long resolve(Query query, Comparison comparison) {
    try {
      return TimeModifiers.resolveMicros(comparison.value(), now, zone);
    } catch (IllegalArgumentException e) {
      throw new QueryParseException(
          e.getMessage(),
          query.text(),
          comparison.position(),
          comparison.value(),
          "a time modifier");
    }
  }

  private static void flattenAnd(SearchExpression expression, List<SearchExpression> into) {
    if (expression instanceof SearchExpression.And and) {
      and.operands().forEach(operand -> flattenAnd(operand, into));
    } else {
      into.add(expression);
    }
  }

  private static void checkNoNestedTimeModifier(
      Query query, SearchExpression expression, boolean nested) {
    switch (expression) {
      case Comparison c -> {
        String field = c.field().toLowerCase(Locale.ROOT);
        if (field.equals("earliest") || field.equals("latest")) {
          Position at = c.position();
          String problem =
              nested
                  ? c.field() + " must be a top-level term of the search, not inside OR or NOT"
                  : c.field() + " takes '=' only";
          throw new QueryParseException(
              problem, query.text(), at, c.field(), c.field() + "=<time>");
        }
      }
      case SearchExpression.And and ->
          and.operands().forEach(o -> checkNoNestedTimeModifier(query, o, nested));
      case SearchExpression.Or or ->
          or.operands().forEach(o -> checkNoNestedTimeModifier(query, o, true));
      case SearchExpression.Not not -> checkNoNestedTimeModifier(query, not.operand(), true);
      case SearchExpression.Term term -> {}
      case SearchExpression.In in -> {}
      case SearchExpression.SubsearchTerm sub -> {}
    }
  }

  private static boolean mentionsIndex(SearchExpression expression) {
    return switch (expression) {
      case Comparison c -> c.field().equalsIgnoreCase("index");
      case SearchExpression.In in -> in.field().equalsIgnoreCase("index");
      case SearchExpression.And and ->
          and.operands().stream().anyMatch(SearchPlanner::mentionsIndex);
      case SearchExpression.Or or -> or.operands().stream().anyMatch(SearchPlanner::mentionsIndex);
      case SearchExpression.Not not -> mentionsIndex(not.operand());
      case SearchExpression.Term term -> false;
      case SearchExpression.SubsearchTerm sub -> false;
    };
  }

  /**
   * Top-N: a {@code sort} followed by {@code head N} keeps at most N rows in its heap instead of
   * {@code sort}'s own limit (10,000 by default, all with {@code sort 0}), so {@code sort -bytes |
   * head 10} over millions of events holds 10 of them.
   */
  static List<Command> topN(List<Command> pipeline) {
    List<Command> rewritten = new ArrayList<>(pipeline);
    for (int i = 0; i + 1 < rewritten.size(); i++) {
      if (rewritten.get(i) instanceof io.quarry.ql.ast.SortCommand sort
          && rewritten.get(i + 1) instanceof io.quarry.ql.ast.HeadCommand head
          && head.limit() < sort.limit()) {
        rewritten.set(
            i, new io.quarry.ql.ast.SortCommand(head.limit(), sort.keys(), sort.position()));
      }
    }
    return List.copyOf(rewritten);
  }
}
