package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.exec.MemoryTracker;
import io.quarry.ql.exec.TimeField;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code list}: a group's first {@value #LIMIT} values in arrival order, duplicates kept, as Splunk
 * does ({@code _time} as epoch seconds); one value is answered as itself.
 */
final class ListFunction implements GroupingFunction {
  /** The most values kept per group. */
  static final int LIMIT = 100;

  private final boolean overTime;
  private List<Object>[] lists = newLists(0);

  ListFunction(String field) {
    this.overTime = TimeField.is(field);
  }

  @SuppressWarnings("unchecked")
  private static List<Object>[] newLists(int size) {
    return (List<Object>[]) new List<?>[size];
  }

  @Override
  public boolean orderMatters() {
    return true; // the values as read
  }

  @Override
  public void grow(int groups) {
    if (groups > lists.length) {
      lists = Arrays.copyOf(lists, Math.max(groups, lists.length * 2));
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
      Object value = BlockValues.object(values, i);
      grown += keep(group, overTime ? TimeField.seconds(value) : value);
    }
    return grown;
  }

  private long keep(int group, Object value) {
    List<Object> list = lists[group];
    if (list == null) {
      list = lists[group] = new ArrayList<>();
    }
    if (list.size() >= LIMIT) {
      return 0;
    }
    list.add(value);
    return 8 + MemoryTracker.valueBytes(value);
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    List<Object> theirs = ((ListFunction) other).lists[otherGroup];
    long grown = 0;
    if (theirs != null) {
      for (Object value : theirs) {
        grown += keep(group, value);
      }
    }
    return grown;
  }

  @Override
  public Object result(int group) {
    List<Object> list = lists[group];
    return list == null ? null : list.size() == 1 ? list.get(0) : List.copyOf(list);
  }

  @Override
  public long bytesPerGroup() {
    return 8;
  }
}
