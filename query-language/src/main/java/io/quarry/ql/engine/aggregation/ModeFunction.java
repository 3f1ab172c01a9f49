package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.exec.MemoryTracker;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code mode}: per group how often each value's text occurs, in first-seen order; the answer is
 * the most frequent, the first seen among equals.
 */
final class ModeFunction implements GroupingFunction {
  private Map<String, long[]>[] counts = newMaps(0);

  @SuppressWarnings("unchecked")
  private static Map<String, long[]>[] newMaps(int size) {
    return (Map<String, long[]>[]) new Map<?, ?>[size];
  }

  @Override
  public void grow(int groups) {
    if (groups > counts.length) {
      counts = Arrays.copyOf(counts, Math.max(groups, counts.length * 2));
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
      grown += count(group, BlockValues.text(values, i), 1);
    }
    return grown;
  }

  private long count(int group, String text, long times) {
    Map<String, long[]> map = counts[group];
    if (map == null) {
      map = counts[group] = new LinkedHashMap<>();
    }
    long[] counter = map.get(text);
    if (counter == null) {
      map.put(text, new long[] {times});
      return MemoryTracker.ENTRY_BYTES + MemoryTracker.valueBytes(text);
    }
    counter[0] += times;
    return 0;
  }

  @Override
  public long merge(int group, GroupingFunction other, int otherGroup) {
    Map<String, long[]> theirs = ((ModeFunction) other).counts[otherGroup];
    if (theirs == null) {
      return 0;
    }
    long grown = 0;
    for (Map.Entry<String, long[]> entry : theirs.entrySet()) {
      grown += count(group, entry.getKey(), entry.getValue()[0]);
    }
    return grown;
  }

  @Override
  public Object result(int group) {
    Map<String, long[]> map = counts[group];
    if (map == null) {
      return null;
    }
    String best = null;
    long bestCount = 0;
    for (Map.Entry<String, long[]> entry : map.entrySet()) {
      if (entry.getValue()[0] > bestCount) {
        best = entry.getKey();
        bestCount = entry.getValue()[0];
      }
    }
    return best;
  }

  @Override
  public long bytesPerGroup() {
    return 8;
  }
}
