package io.quarry.ql.exec;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import java.util.Arrays;
import java.util.List;

/**
 * The state of simple aggregations — {@code count}, {@code sum}, {@code avg}, {@code min}, {@code
 * max}, {@code range} — for every group, in one {@code long[]} by group id: a plain {@code count}
 * takes one slot, the others six (count, numeric count, sum, min, max, whether every number was
 * whole; doubles as their bits), side by side so that one row touches one or two cache lines
 * instead of a group's accumulator objects. The arithmetic is {@code StatsOperator}'s own, so
 * answers do not depend on which path counted a row ({@code _time} read as epoch seconds, as {@link
 * TimeField} says); the states are added into accumulators whenever the groups are read.
 */
final class GroupStates {
  static final int COUNT = 0;
  static final int NUMERIC_COUNT = 1;
  static final int SUM = 2;
  static final int MIN = 3;
  static final int MAX = 4;
  static final int FRACTIONAL = 5; // non-zero once a number was not whole

  private static final int NUMERIC_WIDTH = 6;

  private final String[] fields; // null: a plain count
  private final boolean[] numeric; // false: a count, one slot
  private final boolean[] time; // over _time: its values read as seconds
  private final int[] offsets;
  private final int stride;
  private long[] states = new long[0];

  /** Whether these states can hold every aggregation of {@code aggregations}. */
  static boolean canHold(List<Aggregation> aggregations) {
    return aggregations.stream()
        .allMatch(
            a ->
                switch (a.function()) {
                  case COUNT, SUM, AVG, MIN, MAX, RANGE -> true;
                  default -> false;
                });
  }

  GroupStates(List<Aggregation> aggregations) {
    fields = new String[aggregations.size()];
    offsets = new int[aggregations.size()];
    numeric = new boolean[aggregations.size()];
    time = new boolean[aggregations.size()];
    int at = 0;
    for (int i = 0; i < fields.length; i++) {
      Aggregation aggregation = aggregations.get(i);
      fields[i] = aggregation.field().orElse(null);
      numeric[i] = aggregation.function() != AggregateFunction.COUNT;
      time[i] = TimeField.is(fields[i]);
      offsets[i] = at;
      at += numeric[i] ? NUMERIC_WIDTH : 1;
    }
    stride = at;
  }

  /** Bytes one group's states take. */
  long bytesPerGroup() {
    return 8L * stride;
  }

  /** Makes room for group {@code id} (ids come in order) and sets its states to empty. */
  void init(int id) {
    int base = id * stride;
    if (base + stride > states.length) {
      states = Arrays.copyOf(states, Math.max(base + stride, states.length * 2));
    }
    for (int i = 0; i < fields.length; i++) {
      int at = base + offsets[i];
      states[at + COUNT] = 0;
      if (numeric[i]) {
        states[at + NUMERIC_COUNT] = 0;
        states[at + SUM] = Double.doubleToRawLongBits(0);
        states[at + MIN] = Double.doubleToRawLongBits(Double.POSITIVE_INFINITY);
        states[at + MAX] = Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY);
        states[at + FRACTIONAL] = 0;
      }
    }
  }

  /** Adds a row to group {@code id}. */
  void add(int id, Row row) {
    int base = id * stride;
    for (int i = 0; i < fields.length; i++) {
      int at = base + offsets[i];
      if (fields[i] == null) {
        states[at + COUNT]++;
        continue;
      }
      List<Object> values = row.values(fields[i]);
      if (!numeric[i]) {
        states[at + COUNT] += values.size();
        continue;
      }
      for (Object value : values) {
        states[at + COUNT]++;
        addNumber(at, time[i] ? TimeField.secondsNumber(value) : Values.toNumber(value));
      }
    }
  }

  private void addNumber(int at, double number) {
    if (Double.isNaN(number)) {
      return;
    }
    states[at + NUMERIC_COUNT]++;
    states[at + SUM] =
        Double.doubleToRawLongBits(Double.longBitsToDouble(states[at + SUM]) + number);
    if (!(number == Math.rint(number) && Math.abs(number) < 0x1p53)) {
      states[at + FRACTIONAL] = 1;
    }
    states[at + MIN] =
        Double.doubleToRawLongBits(Math.min(Double.longBitsToDouble(states[at + MIN]), number));
    states[at + MAX] =
        Double.doubleToRawLongBits(Math.max(Double.longBitsToDouble(states[at + MAX]), number));
  }

  /** Adds group {@code from} of {@code other} (the same aggregations) to group {@code id}. */
  void merge(int id, GroupStates other, int from) {
    int base = id * stride;
    int otherBase = from * stride;
    for (int i = 0; i < fields.length; i++) {
      int at = base + offsets[i];
      int theirs = otherBase + offsets[i];
      states[at + COUNT] += other.states[theirs + COUNT];
      if (numeric[i]) {
        states[at + NUMERIC_COUNT] += other.states[theirs + NUMERIC_COUNT];
        states[at + SUM] =
            Double.doubleToRawLongBits(
                Double.longBitsToDouble(states[at + SUM])
                    + Double.longBitsToDouble(other.states[theirs + SUM]));
        states[at + MIN] =
            Double.doubleToRawLongBits(
                Math.min(
                    Double.longBitsToDouble(states[at + MIN]),
                    Double.longBitsToDouble(other.states[theirs + MIN])));
        states[at + MAX] =
            Double.doubleToRawLongBits(
                Math.max(
                    Double.longBitsToDouble(states[at + MAX]),
                    Double.longBitsToDouble(other.states[theirs + MAX])));
        states[at + FRACTIONAL] |= other.states[theirs + FRACTIONAL];
      }
    }
  }

  /** One state of aggregation {@code aggregation} of group {@code id} (a constant above). */
  long state(int id, int aggregation, int which) {
    return states[id * stride + offsets[aggregation] + which];
  }

  /** Whether aggregation {@code aggregation} keeps the numeric states. */
  boolean numeric(int aggregation) {
    return numeric[aggregation];
  }
}
