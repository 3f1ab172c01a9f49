package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.TimeField;
import java.util.Arrays;

/**
 * {@code first} and {@code latest} (the value with the greatest {@code _time}), {@code last} and
 * {@code earliest} (the smallest), {@code latest_time} and {@code earliest_time} (their times, as
 * epoch seconds): one value and its time per group. Among values of one time the first one seen
 * stays ({@code _time} itself answered as epoch seconds).
 */
final class TimeOrderedFunction implements GroupingFunction {
  private final boolean newest;
  private final boolean overTime;
  private final boolean answersTime;
  private Object[] values = new Object[0];
  private long[] times = new long[0];

  TimeOrderedFunction(AggregateFunction function, String field) {
    this.newest =
        function == AggregateFunction.FIRST
            || function == AggregateFunction.LATEST
            || function == AggregateFunction.LATEST_TIME;
    this.overTime = TimeField.is(field);
    this.answersTime =
        function == AggregateFunction.EARLIEST_TIME || function == AggregateFunction.LATEST_TIME;
  }

  @Override
  public boolean orderMatters() {
    return true; // among values of one _time, the first seen
  }

  @Override
  public void grow(int groups) {
    if (groups > values.length) {
      int size = Math.max(groups, values.length * 2);
      values = Arrays.copyOf(values, size);
      times = Arrays.copyOf(times, size);
    }
  }

  @Override
  public long add(int group, Block block, int position, long time) {
    if (block == null) {
      return 0;
    }
    int first = block.getFirstValueIndex(position);
    int end = first + block.getValueCount(position);
    long grown = 0;
    for (int i = first; i < end; i++) {
      grown += offer(group, BlockValues.object(block, i), time);
    }
    return grown;
  }

  private long offer(int group, Object value, long time) {
    Object kept = values[group];
    boolean better =
        kept == null
            || (newest
                ? time > times[group]
                : time < times[group] || (time == times[group] && time == Long.MIN_VALUE));
    if (!better) {
      return 0;
    }
    values[group] = value;
    times[group] = time;
    return kept == null ? MemoryTracker.valueBytes(value) : 0;
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    TimeOrderedFunction theirs = (TimeOrderedFunction) other;
    Object value = theirs.values[otherGroup];
    long time = theirs.times[otherGroup];
    if (value == null) {
      return 0;
    }
    Object kept = values[group];
    if (kept == null || (newest ? time > times[group] : time < times[group])) {
      values[group] = value;
      times[group] = time;
      return kept == null ? MemoryTracker.valueBytes(value) : 0;
    }
    return 0;
  }

  @Override
  public Object result(int group) {
    if (answersTime) {
      return values[group] == null ? null : TimeField.secondsOf(times[group]);
    }
    return overTime ? TimeField.seconds(values[group]) : values[group];
  }

  /** A group's kept value as it was added (null: none). */
  Object rawValue(int group) {
    return values[group];
  }

  /** The time (epoch microseconds) of a group's kept value. */
  long time(int group) {
    return times[group];
  }

  @Override
  public long bytesPerGroup() {
    return 16;
  }
}
