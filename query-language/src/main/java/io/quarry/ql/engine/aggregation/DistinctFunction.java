package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.exec.MemoryTracker;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code dc} and {@code values}: the distinct texts of a group's values ({@code _time} as epoch
 * seconds); {@code values} answers them sorted lexicographically, a lone value as itself.
 */
final class DistinctFunction implements GroupingFunction {
  private final AggregateFunction function;
  private Set<String>[] sets = newSets(0);

  DistinctFunction(AggregateFunction function) {
    this.function = function;
  }

  @SuppressWarnings("unchecked")
  private static Set<String>[] newSets(int size) {
    return (Set<String>[]) new Set<?>[size];
  }

  @Override
  public boolean orderMatters() {
    return false; // a set of distinct values (values sorts them)
  }

  @Override
  public void grow(int groups) {
    if (groups > sets.length) {
      sets = Arrays.copyOf(sets, Math.max(groups, sets.length * 2));
    }
  }

  @Override
  public long add(int group, Block values, int position, long time) {
    if (values == null) {
      return 0;
    }
    int first = values.getFirstValueIndex(position);
    int end = first + values.getValueCount(position);
    long grown = 0;
    for (int i = first; i < end; i++) {
      grown += add(group, BlockValues.text(values, i));
    }
    return grown;
  }

  private long add(int group, String text) {
    Set<String> set = sets[group];
    if (set == null) {
      set = sets[group] = new HashSet<>(4);
    }
    return set.add(text) ? MemoryTracker.ENTRY_BYTES / 2 + MemoryTracker.valueBytes(text) : 0;
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    Set<String> theirs = ((DistinctFunction) other).sets[otherGroup];
    if (theirs == null) {
      return 0;
    }
    long grown = 0;
    for (String text : theirs) {
      grown += add(group, text);
    }
    return grown;
  }

  @Override
  public Object result(int group) {
    Set<String> set = sets[group];
    if (function == AggregateFunction.DISTINCT_COUNT) {
      return set == null ? 0L : (long) set.size();
    }
    if (set == null) {
      return null;
    }
    List<Object> sorted = new ArrayList<>(set);
    sorted.sort(null);
    return sorted.size() == 1 ? sorted.get(0) : sorted;
  }

  @Override
  public long bytesPerGroup() {
    return 8;
  }
}
