package io.quarry.ql.engine.aggregation;

import io.quarry.plugin.api.data.Block;
import io.quarry.ql.exec.MemoryTracker;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * {@code mode}: per group how often each value's text occurs and its oldest {@code _time}; the
 * answer is the most frequent value. Among equals, the one that reaches the top count first when
 * events are read newest first, as Splunk reads them — its oldest occurrence is the newest of the
 * tied values' — and among those, the least text. One rule whatever the layout, the order events of
 * equal time come in, or how slices split and merge ({@link #merge} keeps counts and oldest times);
 * without a {@code _time} (after a {@code stats}) the least text. Splunk's Search Reference
 * documents no tie rule (docs/search.md, "Differences from Splunk").
 */
final class ModeFunction implements GroupingFunction {
  private Map<String, long[]>[] counts = newMaps(0);

  @SuppressWarnings("unchecked")
  private static Map<String, long[]>[] newMaps(int size) {
    return (Map<String, long[]>[]) new Map<?, ?>[size];
  }

  @Override
  public boolean orderMatters() {
    return false; // ties are broken by oldest time and text, never by the order read
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
      grown += count(group, BlockValues.text(values, i), 1, time);
    }
    return grown;
  }

  /** Counts {@code text} {@code times} more, its oldest time at most {@code oldest}. */
  private long count(int group, String text, long times, long oldest) {
    Map<String, long[]> map = counts[group];
    if (map == null) {
      map = counts[group] = new HashMap<>();
    }
    long[] counter = map.get(text);
    if (counter == null) {
      map.put(text, new long[] {times, oldest});
      return MemoryTracker.ENTRY_BYTES + MemoryTracker.valueBytes(text);
    }
    counter[0] += times;
    counter[1] = Math.min(counter[1], oldest);
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
      grown += count(group, entry.getKey(), entry.getValue()[0], entry.getValue()[1]);
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
    long[] bestCounter = null;
    for (Map.Entry<String, long[]> entry : map.entrySet()) {
      long[] counter = entry.getValue();
      if (best == null || before(counter, entry.getKey(), bestCounter, best)) {
        best = entry.getKey();
        bestCounter = counter;
      }
    }
    return best;
  }

  /** Whether value {@code text} ({count, oldest time}) wins over {@code other}'s. */
  private static boolean before(long[] counter, String text, long[] other, String otherText) {
    if (counter[0] != other[0]) {
      return counter[0] > other[0];
    }
    if (counter[1] != other[1]) {
      return counter[1] > other[1]; // reached the count first, newest first
    }
    return text.compareTo(otherText) < 0;
  }

  @Override
  public long bytesPerGroup() {
    return 8;
  }
}
