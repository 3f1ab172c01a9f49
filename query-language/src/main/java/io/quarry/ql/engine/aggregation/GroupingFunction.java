package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;

/**
 * One {@code stats} function's state for every group, in arrays by dense group id (ids come in
 * order, from {@link GroupKeys}): add a position's values to a group, merge another instance's
 * group into one of ours (a partial from another search thread), answer a group's result. The tests
 * check the results value for value against a plain Java {@code stats} ({@code PlainStats}).
 */
public interface GroupingFunction {

  /** Whether a page implementation exists for {@code aggregation} (all but wildcard fields). */
  static boolean supports(Aggregation aggregation) {
    return !WildcardFields.isWildcard(aggregation); // fields known late
  }

  /** Whether {@code aggregation}'s function orders values by {@code _time}. */
  static boolean needsTime(Aggregation aggregation) {
    return switch (aggregation.function()) {
      case FIRST, LAST, EARLIEST, LATEST, EARLIEST_TIME, LATEST_TIME, RATE, MODE -> true;
      default -> false;
    };
  }

  /**
   * Whether a group's answer depends on the order its values were added or merged in, beyond what
   * the values carry ({@code list} keeps them as read; {@code first}, {@code last}, {@code
   * earliest}, {@code latest} and {@code rate} keep, among values of one {@code _time}, the first
   * seen): then partials are merged in the order read ({@code StatsMerge}). Declared by every
   * function, no default, so a new order-dependent function cannot be merged out of order
   * unnoticed.
   */
  boolean orderMatters();

  /** A new, empty state for {@code aggregation} (one {@link #supports} accepts). */
  static GroupingFunction of(Aggregation aggregation) {
    return switch (aggregation.function()) {
      case COUNT -> new CountFunction(aggregation.field().isPresent());
      case SUM, AVG, MIN, MAX, RANGE ->
          new NumericFunction(aggregation.function(), aggregation.field().orElseThrow());
      case DISTINCT_COUNT, VALUES -> new DistinctFunction(aggregation.function());
      case ESTIMATED_DISTINCT_COUNT -> new SketchFunction();
      case VAR, VARP, STDEV, STDEVP, SUMSQ -> new VarianceFunction(aggregation.function());
      case MEDIAN, PERCENTILE -> new PercentileFunction(aggregation.percentile());
      case MODE -> new ModeFunction();
      case LIST -> new ListFunction(aggregation.field().orElseThrow());
      case FIRST, LAST, EARLIEST, LATEST, EARLIEST_TIME, LATEST_TIME ->
          new TimeOrderedFunction(aggregation.function(), aggregation.field().orElseThrow());
      case RATE -> new RateFunction(aggregation.field().orElseThrow());
      // timechart's per_*: a sum per bucket, divided by the bucket's length by the chart's pivot
      case PER_SECOND, PER_MINUTE, PER_HOUR, PER_DAY ->
          new NumericFunction(AggregateFunction.SUM, aggregation.field().orElseThrow());
    };
  }

  /**
   * New, empty states for every one of {@code aggregations} (each one {@link #supports} accepts),
   * in their order, as {@link #of} makes them — but a {@code count} of rows beside a numeric
   * function ({@code sum}, {@code avg}, {@code min}, {@code max}, {@code range}, the first such) is
   * answered from rows that function counts in its own slot per group ({@link RowCount}): {@code
   * stats range(_time), count by f} touches one cache line per event, not two. Every instance that
   * merges with another of the same {@code stats} must be made here (or every one by {@link #of}):
   * a {@link RowCount} merges nothing itself.
   */
  static GroupingFunction[] all(java.util.List<Aggregation> aggregations) {
    GroupingFunction[] functions = new GroupingFunction[aggregations.size()];
    int host = -1;
    boolean countsRows = false;
    for (int f = 0; f < functions.length; f++) {
      Aggregation aggregation = aggregations.get(f);
      if (host < 0 && isNumeric(aggregation.function())) {
        host = f;
      }
      countsRows |= countsRows(aggregation);
    }
    NumericFunction rows = null;
    if (host >= 0 && countsRows) {
      Aggregation aggregation = aggregations.get(host);
      rows = NumericFunction.withRows(aggregation.function(), aggregation.field().orElseThrow());
      functions[host] = rows;
    }
    for (int f = 0; f < functions.length; f++) {
      if (functions[f] == null) {
        Aggregation aggregation = aggregations.get(f);
        functions[f] =
            rows != null && countsRows(aggregation) ? new RowCount(rows) : of(aggregation);
      }
    }
    return functions;
  }

  private static boolean isNumeric(AggregateFunction function) {
    return switch (function) {
      case SUM, AVG, MIN, MAX, RANGE -> true;
      default -> false;
    };
  }

  /** Whether {@code aggregation} is {@code count} of rows (no field). */
  private static boolean countsRows(Aggregation aggregation) {
    return aggregation.function() == AggregateFunction.COUNT && aggregation.field().isEmpty();
  }

  /** Makes room for groups {@code [0, groups)}; new groups are empty. */
  void grow(int groups);

  /**
   * Adds the values at {@code position} of {@code values} (the function's field; null when the page
   * has no such column) to {@code group}; {@code time} is the position's {@code _time} in epoch
   * microseconds (Long.MIN_VALUE without one) for the functions that order by it ({@link
   * #needsTime}), else Long.MIN_VALUE.
   *
   * @return the bytes of state that grew beyond {@link #bytesPerGroup} (distinct values kept)
   */
  long add(int group, Block values, int position, long time);

  /**
   * Adds every position {@code p} of a page in {@code [0, count)} to group {@code groups[p]}
   * ({@code -1}: to none), as {@link #add} would one by one; {@code times[p]} is its {@code _time}
   * (null when the function does not order by it). A function overrides it to add a whole block in
   * one tight loop: with many groups each row's state is a cache miss, and a loop without a call
   * per row keeps many of them in flight.
   *
   * @return the bytes of state that grew beyond {@link #bytesPerGroup}
   */
  default long addPage(int[] groups, int count, Block values, long[] times) {
    long grown = 0;
    for (int p = 0; p < count; p++) {
      int group = groups[p];
      if (group >= 0) {
        grown += add(group, values, p, times == null ? Long.MIN_VALUE : times[p]);
      }
    }
    return grown;
  }

  /**
   * Adds group {@code otherGroup} of {@code other} (the same function) to {@code group}.
   *
   * @return the bytes of state that grew beyond {@link #bytesPerGroup}
   */
  long merge(int group, GroupingFunction other, int otherGroup);

  /**
   * Adds groups {@code [otherFrom, otherFrom + count)} of {@code other} (the same function) to
   * groups {@code groups[0, count)}, in that order, as {@link #merge} would one by one; a function
   * overrides it to merge in one tight loop (the states merged into are the random accesses).
   *
   * @return the bytes of state that grew beyond {@link #bytesPerGroup}
   */
  default long mergePage(int[] groups, int count, GroupingFunction other, int otherFrom) {
    long grown = 0;
    for (int i = 0; i < count; i++) {
      grown += merge(groups[i], other, otherFrom + i);
    }
    return grown;
  }

  /**
   * Adds groups {@code otherGroups[0, count)} of {@code other} (the same function) to groups {@code
   * [0, count)}, in that order, as {@link #merge} would one by one: how the states a partial keeps
   * by dictionary entry are gathered into groups numbered from 0 ({@code EntryPartial}).
   *
   * @return the bytes of state that grew beyond {@link #bytesPerGroup}
   */
  default long mergeGathered(int count, GroupingFunction other, int[] otherGroups) {
    long grown = 0;
    for (int i = 0; i < count; i++) {
      grown += merge(i, other, otherGroups[i]);
    }
    return grown;
  }

  /**
   * A group's result: a {@code Long}, {@code Double}, {@code String}, a {@code List} of several
   * values, or null.
   */
  Object result(int group);

  /** The bytes one group's state takes in the arrays. */
  long bytesPerGroup();
}
