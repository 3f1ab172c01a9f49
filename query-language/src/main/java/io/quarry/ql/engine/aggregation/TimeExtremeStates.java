package io.quarry.ql.engine.aggregation;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.Block;
import io.quarry.plugin.api.data.BytesBlock;
import io.quarry.plugin.api.data.DataType;
import io.quarry.plugin.api.data.LongBlock;
import io.quarry.plugin.api.data.Page;
import io.quarry.plugin.api.data.Schema;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.Command;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.exec.TimeField;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The intermediate states a source made by key in place of rows for {@code stats} of {@code count}
 * and {@code min}, {@code max} or {@code range} of {@code _time} by one field ({@link #supports}):
 * per key its rows, and the least and greatest {@code _time} among them — ES|QL's intermediate
 * state blocks (an aggregator's state handed on as blocks, merged by the aggregation as a partial's
 * would be), for a scan that aggregates a search-time field itself (the server's key=value fused
 * scan). A page ({@link #page}) has the key column named as the by-field, {@link CountPages#COUNT}
 * and the two times in epoch microseconds ({@link #MIN_TIME}, {@link #MAX_TIME}); {@link
 * HashAggregationOperator#addIntermediateInput} takes it ({@link #holds}) beside {@link CountPages}
 * and adds each position to its group ({@link #add}) as that many rows of those times would add:
 * {@code count} adds the rows, {@code min}/{@code max}/{@code range} of {@code _time} add the two
 * extremes and the rows as values ({@link NumericFunction#addTimeStates}) — the same answers, to
 * the microsecond, as the rows themselves (the tests compare both).
 */
public final class TimeExtremeStates {
  /** The column of each key's least {@code _time}, epoch microseconds. */
  public static final String MIN_TIME = "\u0000min_time";

  /** The column of each key's greatest {@code _time}, epoch microseconds. */
  public static final String MAX_TIME = "\u0000max_time";

  /**
   * The most positions of a page whose keys {@link #add} looks up together (each key hashed and its
   * first slot read before any is probed); a larger page is looked up position by position. A
   * source hands its states on in pages of at most this many.
   */
  public static final int BATCH = 1024;

  private TimeExtremeStates() {}

  /**
   * Whether {@code aggregation} is a {@code stats} these states answer: by exactly one field, each
   * function a plain {@code count} of rows or {@code min}, {@code max} or {@code range} of {@code
   * _time} (no {@code eval(…)} argument); {@code times} says whether one of them reads {@code
   * _time} (else only counts).
   */
  public static boolean supports(Command aggregation) {
    if (!(aggregation instanceof StatsCommand stats)
        || stats.groupBy().size() != 1
        || TimeField.is(stats.groupBy().get(0))
        || !HashAggregationOperator.supports(stats)
        || WildcardAggregation.supports(stats)) {
      return false;
    }
    for (Aggregation a : stats.aggregations()) {
      if (a.evaluated().isPresent()) {
        return false;
      }
      boolean ok =
          switch (a.function()) {
            case COUNT -> a.field().isEmpty();
            case MIN, MAX, RANGE -> a.field().isPresent() && TimeField.is(a.field().get());
            default -> false;
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a {@code stats} that {@link #supports} needs {@code _time}: some function is {@code
   * min}, {@code max} or {@code range} of it.
   */
  public static boolean readsTime(StatsCommand stats) {
    return stats.aggregations().stream().anyMatch(a -> a.function() != AggregateFunction.COUNT);
  }

  /**
   * The states of {@code field}'s keys {@code values}: {@code counts} rows each, their {@code
   * _time} from {@code minTimes} to {@code maxTimes} (epoch microseconds), position by position.
   */
  public static Page page(
      String field, BytesBlock values, LongBlock counts, LongBlock minTimes, LongBlock maxTimes) {
    requireNonNull(field, "field is null");
    int positions = values.positionCount();
    for (Block block : List.of(counts, minTimes, maxTimes)) {
      if (block.positionCount() != positions) {
        throw new IllegalArgumentException(
            positions + " keys but a column of " + block.positionCount());
      }
    }
    return new Page(
        new Schema(
            List.of(
                new Schema.Column(field, DataType.STRING),
                new Schema.Column(CountPages.COUNT, DataType.LONG),
                new Schema.Column(MIN_TIME, DataType.TIMESTAMP),
                new Schema.Column(MAX_TIME, DataType.TIMESTAMP))),
        List.of(values, counts, minTimes, maxTimes));
  }

  /**
   * Whether {@code page} is one of these states' pages ({@link #page}), not {@link CountPages}'.
   */
  static boolean holds(Page page) {
    return page.schema().indexOf(MIN_TIME) >= 0;
  }

  /**
   * Adds a states page to the groups of {@code keys} ({@code keyBlocks}: each position's by-field
   * value picks its group as a page's rows do) in {@code functions}, those of a {@code stats} that
   * {@link #supports}; {@code grow} makes room in the functions for new groups and returns the
   * bytes they take.
   *
   * @return the bytes the groups grew
   */
  static long add(
      Page states,
      Block[] keyBlocks,
      GroupKeys keys,
      GroupingFunction[] functions,
      LongSupplier grow) {
    for (GroupingFunction function : functions) {
      if (!(function instanceof RowCount
          || function instanceof CountFunction count && count.countsRows()
          || function instanceof NumericFunction numeric && numeric.overTimeExtremes())) {
        throw new IllegalStateException("time states added to a stats that does not take them");
      }
    }
    LongBlock counts = CountPages.counts(states);
    LongBlock minTimes = times(states, MIN_TIME);
    LongBlock maxTimes = times(states, MAX_TIME);
    int positions = states.positionCount();
    int[] ids = positions <= BATCH ? new int[positions] : null;
    if (ids != null && keys.groupOfEach(keyBlocks, positions, ids)) {
      // one group or none per position (a fused scan's keys): every key looked up first, in
      // batches whose cache misses are in flight together, then the states added function by
      // function — a lookup per position, each waiting on the last, cost a drain of 200,000 keys
      // most of its time (session 45)
      // one loop per function and state kind: no type test per position
      long grown = grow.getAsLong();
      for (GroupingFunction function : functions) {
        if (function instanceof CountFunction count) {
          for (int p = 0; p < positions; p++) {
            if (ids[p] >= 0) {
              count.addCount(ids[p], CountPages.count(counts, p));
            }
          }
        } else if (function instanceof NumericFunction numeric) {
          for (int p = 0; p < positions; p++) {
            if (ids[p] >= 0) {
              addTimeStates(numeric, ids[p], counts, minTimes, maxTimes, p);
            }
          }
        } // a RowCount: nothing (its host added the rows)
      }
      return grown;
    }
    // the functions sorted by state kind once: each position's groups take the counts, then the
    // time states, each kind a loop of its own
    List<CountFunction> countFunctions = new ArrayList<>();
    List<NumericFunction> timeFunctions = new ArrayList<>();
    for (GroupingFunction function : functions) {
      if (function instanceof CountFunction count) {
        countFunctions.add(count);
      } else if (function instanceof NumericFunction numeric) {
        timeFunctions.add(numeric);
      }
    }
    CountFunction[] countsTo = countFunctions.toArray(CountFunction[]::new);
    NumericFunction[] timesTo = timeFunctions.toArray(NumericFunction[]::new);
    long grown = 0;
    for (int p = 0; p < positions; p++) {
      int n = keys.groupsOf(keyBlocks, p);
      if (n == 0) {
        continue;
      }
      grown += grow.getAsLong();
      int[] groups = keys.ids();
      for (int i = 0; i < n; i++) {
        for (CountFunction count : countsTo) {
          count.addCount(groups[i], CountPages.count(counts, p));
        }
        for (NumericFunction numeric : timesTo) {
          addTimeStates(numeric, groups[i], counts, minTimes, maxTimes, p);
        }
      }
    }
    return grown;
  }

  /**
   * Position {@code p}'s states added to group {@code id} of {@code min}/{@code max}/{@code range}
   * of {@code _time}: the extremes, and the rows as values.
   */
  private static void addTimeStates(
      NumericFunction numeric,
      int id,
      LongBlock counts,
      LongBlock minTimes,
      LongBlock maxTimes,
      int p) {
    numeric.addTimeStates(
        id,
        CountPages.count(counts, p),
        minTimes.getLongValue(minTimes.getFirstValueIndex(p)),
        maxTimes.getLongValue(maxTimes.getFirstValueIndex(p)));
  }

  private static LongBlock times(Page page, String column) {
    if (!(page.block(column) instanceof LongBlock times)) {
      throw new IllegalArgumentException("not a page of time states: " + page.schema());
    }
    return times;
  }
}
