package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code stats}: groups rows by the values of the by-fields (a row missing one is skipped; a
 * multivalue field puts the row in one group per value) and emits one row per group at the end, in
 * ascending natural order of the group values. Without by-fields it emits exactly one row, also
 * when no rows came.
 */
public final class StatsOperator implements RowSink {
  private final StatsCommand command;
  private final RowSink downstream;
  private final Map<List<Object>, Accumulator[]> groups = new HashMap<>();

  public StatsOperator(StatsCommand command, RowSink downstream) {
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
  }

  @Override
  public boolean accept(Row row) {
    List<List<Object>> keys = new ArrayList<>();
    collectKeys(row, 0, new ArrayList<>(), keys);
    for (List<Object> key : keys) {
      Accumulator[] accumulators = groups.computeIfAbsent(key, k -> newAccumulators());
      for (int i = 0; i < accumulators.length; i++) {
        Aggregation aggregation = command.aggregations().get(i);
        if (aggregation.field().isEmpty()) {
          accumulators[i].addRow();
        } else {
          for (Object value : row.values(aggregation.field().get())) {
            accumulators[i].add(value);
          }
        }
      }
    }
    return true;
  }

  private void collectKeys(Row row, int index, List<Object> prefix, List<List<Object>> into) {
    if (index == command.groupBy().size()) {
      into.add(List.copyOf(prefix));
      return;
    }
    for (Object value : new java.util.LinkedHashSet<>(row.values(command.groupBy().get(index)))) {
      prefix.add(Values.toText(value));
      collectKeys(row, index + 1, prefix, into);
      prefix.remove(prefix.size() - 1);
    }
  }

  private Accumulator[] newAccumulators() {
    Accumulator[] accumulators = new Accumulator[command.aggregations().size()];
    for (int i = 0; i < accumulators.length; i++) {
      accumulators[i] = new Accumulator();
    }
    return accumulators;
  }

  /**
   * Adds the groups of a partial {@code stats} over other rows (the map side of a map/reduce split:
   * one partial per segment slice, merged here before {@link #finish}). The partial must run the
   * same command and must not be finished.
   */
  public void merge(StatsOperator partial) {
    if (!partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge stats of another command");
    }
    partial.groups.forEach(
        (key, theirs) -> {
          Accumulator[] ours = groups.putIfAbsent(key, theirs);
          if (ours != null) {
            for (int i = 0; i < ours.length; i++) {
              ours[i].merge(theirs[i]);
            }
          }
        });
    partial.groups.clear();
  }

  /** A partial {@code stats}: it only accumulates, to be {@link #merge merged} into a final one. */
  public static StatsOperator partial(StatsCommand command) {
    return new StatsOperator(command, DISCARD);
  }

  private static final RowSink DISCARD =
      new RowSink() {
        @Override
        public boolean accept(Row row) {
          throw new IllegalStateException("a partial stats emits nothing");
        }

        @Override
        public void finish() {
          throw new IllegalStateException("a partial stats is merged, not finished");
        }
      };

  @Override
  public void finish() {
    if (groups.isEmpty() && command.groupBy().isEmpty()) {
      groups.put(List.of(), newAccumulators());
    }
    List<List<Object>> keys = new ArrayList<>(groups.keySet());
    keys.sort(
        (a, b) -> {
          for (int i = 0; i < a.size(); i++) {
            int c = Values.NATURAL_ORDER.compare(a.get(i), b.get(i));
            if (c != 0) {
              return c;
            }
          }
          return 0;
        });
    for (List<Object> key : keys) {
      Map<String, Object> values = new LinkedHashMap<>();
      for (int i = 0; i < key.size(); i++) {
        values.put(command.groupBy().get(i), key.get(i));
      }
      Accumulator[] accumulators = groups.get(key);
      for (int i = 0; i < accumulators.length; i++) {
        Aggregation aggregation = command.aggregations().get(i);
        values.put(aggregation.outputName(), accumulators[i].result(aggregation));
      }
      if (!downstream.accept(new MapRow(values))) {
        break;
      }
    }
    groups.clear();
    downstream.finish();
  }

  /** The state of every function for one group; each function reads the parts it needs. */
  private static final class Accumulator {
    private long count;
    private long numericCount;
    private double sum;
    private boolean allIntegral = true;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private Set<String> distinct;

    void addRow() {
      count++;
    }

    void add(Object value) {
      count++;
      double number = Values.toNumber(value);
      if (!Double.isNaN(number)) {
        numericCount++;
        sum += number;
        allIntegral &= number == Math.rint(number) && Math.abs(number) < 0x1p53;
        min = Math.min(min, number);
        max = Math.max(max, number);
      }
      if (distinct == null) {
        distinct = new HashSet<>();
      }
      distinct.add(Values.toText(value));
    }

    void merge(Accumulator other) {
      count += other.count;
      numericCount += other.numericCount;
      sum += other.sum;
      allIntegral &= other.allIntegral;
      min = Math.min(min, other.min);
      max = Math.max(max, other.max);
      if (other.distinct != null) {
        if (distinct == null) {
          distinct = other.distinct;
        } else {
          distinct.addAll(other.distinct);
        }
      }
    }

    Object result(Aggregation aggregation) {
      return switch (aggregation.function()) {
        case COUNT -> count;
        case DISTINCT_COUNT -> (long) (distinct == null ? 0 : distinct.size());
        case SUM -> numericCount == 0 ? null : typed(sum);
        case AVG -> numericCount == 0 ? null : sum / numericCount;
        case MIN -> numericCount == 0 ? null : typed(min);
        case MAX -> numericCount == 0 ? null : typed(max);
      };
    }

    private Object typed(double value) {
      return allIntegral ? (Object) (long) value : (Object) value;
    }
  }
}
