package io.quarry.server.search.metric;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.ql.ast.MstatsCommand;
import io.quarry.ql.ast.Span;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The states of one {@code mstats} (or of one fork of its scan): per group — the by-fields' values
 * — and time bucket, one state per output column, created on the first point that needs it.
 *
 * <p>A group's buckets are found by number, not by hashing: with a span of fixed width (seconds to
 * weeks), a bucket's start divided by the width is its slot in an array that grows to the buckets
 * met; a month span, or an array that would be mostly empty, keeps them in a map. A series is
 * looked up once (its group), and its points move from bucket to bucket by index.
 */
final class MstatsGroups {
  /** Bytes counted per group and time bucket, and per state in one. */
  static final long GROUP_BYTES = 160;

  static final long COLUMN_BYTES = 64;

  /**
   * Bytes counted on the search's account in steps of this much (one reserve per state is slow).
   */
  private static final long RESERVE_STEP = 16 * 1024;

  /** An array of buckets longer than this (and mostly empty) gives way to a map. */
  private static final int MAX_SLOTS = 1 << 20;

  private final MstatsCommand command;
  private final MstatsColumns columns;
  private final MemoryAccount memory;
  private final long width; // of a bucket, µs; 0: not fixed (months), buckets in a map
  private final Map<List<String>, Group> groups = new HashMap<>();
  private long unreserved; // counted here, not yet on the account

  MstatsGroups(MstatsCommand command, MstatsColumns columns, ZoneId zone, MemoryAccount memory) {
    this.command = command;
    this.columns = columns;
    this.memory = memory;
    Span span = command.span().orElse(null);
    if (span == null) {
      width = 1; // one bucket, at 0
    } else if (span.unit() == ChronoUnit.MONTHS || !(zone instanceof java.time.ZoneOffset)) {
      width = 0;
    } else {
      long start = span.floor(0, zone);
      width = span.next(start, zone) - start;
    }
  }

  /** The buckets of one group. */
  static final class Group {
    final List<String> values;
    private long origin; // the number of slots[0]
    private MetricState[][] slots;
    private long[] starts;
    private int filled;
    private Map<Long, MetricState[]> byStart; // when the width is not fixed, or too sparse

    Group(List<String> values) {
      this.values = values;
    }
  }

  /** The group of the by-field values {@code values} (created empty). */
  Group group(List<String> values) {
    return groups.computeIfAbsent(values, Group::new);
  }

  /**
   * The states of {@code group} in the bucket starting at {@code start}, with a state for each of
   * {@code ids} (the array may be longer; other slots may be null).
   */
  MetricState[] states(Group group, long start, int[] ids) {
    MetricState[] states = find(group, start);
    int needed = 0;
    for (int id : ids) {
      needed = Math.max(needed, id + 1);
    }
    if (needed > aggregations.length) {
      aggregations = columns.aggregations(command);
    }
    if (states == null) {
      count(GROUP_BYTES);
      states = new MetricState[Math.max(needed, columns.size())];
      put(group, start, states);
    } else if (states.length < needed) {
      // columns are met one metric at a time: grow by half again, not by one each time
      states =
          Arrays.copyOf(
              states, Math.max(needed, Math.max(columns.size(), states.length * 3 / 2 + 1)));
      put(group, start, states);
    }
    for (int id : ids) {
      if (states[id] == null) {
        count(COLUMN_BYTES);
        states[id] = MetricState.of(aggregations[id], memory);
      }
    }
    return states;
  }

  /**
   * The aggregation of each column, by number ({@link MstatsColumns} numbers them as the scan meets
   * them): read once per column here rather than under the registry's lock per state.
   */
  private io.quarry.ql.ast.MetricAggregation[] aggregations =
      new io.quarry.ql.ast.MetricAggregation[0];

  private void count(long bytes) {
    unreserved += bytes;
    if (unreserved >= RESERVE_STEP) {
      reserveCounted();
    }
  }

  /** Puts what was counted on the search's account (over its limit: the search fails). */
  void reserveCounted() {
    long bytes = unreserved;
    unreserved = 0;
    if (bytes > 0) {
      memory.reserve(bytes, "mstats");
    }
  }

  private MetricState[] find(Group group, long start) {
    if (group.byStart != null) {
      return group.byStart.get(start);
    }
    if (group.slots == null) {
      return null;
    }
    long at = Math.floorDiv(start, width) - group.origin;
    return at >= 0 && at < group.slots.length ? group.slots[(int) at] : null;
  }

  private void put(Group group, long start, MetricState[] states) {
    if (width == 0 && group.byStart == null) {
      group.byStart = new HashMap<>();
    }
    if (group.byStart != null) {
      group.byStart.put(start, states);
      return;
    }
    long number = Math.floorDiv(start, width);
    if (group.slots == null) {
      group.origin = number;
      group.slots = new MetricState[16][];
      group.starts = new long[16];
    }
    long at = number - group.origin;
    if (at < 0 || at >= group.slots.length) {
      long low = Math.min(group.origin, number);
      long high = Math.max(group.origin + group.slots.length, number + 1);
      long needed = high - low;
      if (needed > MAX_SLOTS && (needed > 8L * (group.filled + 1) || needed > 1 << 28)) {
        toMap(group);
        group.byStart.put(start, states);
        return;
      }
      long length = Math.max(needed, Math.min(2L * group.slots.length, MAX_SLOTS));
      // keep room on the side the buckets grow towards
      long newOrigin = number < group.origin ? high - length : low;
      MetricState[][] slots = new MetricState[(int) length][];
      long[] starts = new long[(int) length];
      int shift = (int) (group.origin - newOrigin);
      System.arraycopy(group.slots, 0, slots, shift, group.slots.length);
      System.arraycopy(group.starts, 0, starts, shift, group.starts.length);
      group.slots = slots;
      group.starts = starts;
      group.origin = newOrigin;
      at = number - newOrigin;
    }
    if (group.slots[(int) at] == null) {
      group.filled++;
    }
    group.slots[(int) at] = states;
    group.starts[(int) at] = start;
  }

  private static void toMap(Group group) {
    group.byStart = new HashMap<>();
    for (int i = 0; i < group.slots.length; i++) {
      if (group.slots[i] != null) {
        group.byStart.put(group.starts[i], group.slots[i]);
      }
    }
    group.slots = null;
    group.starts = null;
  }

  /** One group and bucket, with its states: a row of the answer. */
  record Cell(List<String> values, long start, MetricState[] states) {}

  /** Every group and bucket, ordered by time, then by the by-fields' values. */
  List<Cell> cells() {
    reserveCounted();
    List<Cell> cells = new ArrayList<>();
    for (Group group : groups.values()) {
      forEach(group, (start, states) -> cells.add(new Cell(group.values, start, states)));
    }
    cells.sort(ORDER);
    return cells;
  }

  /** A bucket of a group: its start and states. */
  private interface Each {
    void accept(long start, MetricState[] states);
  }

  private static void forEach(Group group, Each each) {
    if (group.byStart != null) {
      group.byStart.forEach((start, states) -> each.accept(start, states));
    } else if (group.slots != null) {
      for (int i = 0; i < group.slots.length; i++) {
        if (group.slots[i] != null) {
          each.accept(group.starts[i], group.slots[i]);
        }
      }
    }
  }

  /**
   * Takes in the states of {@code later} (a fork that read series after everything this one read):
   * a bucket only it has is taken over, a state both have merged ({@link MetricState#merge}).
   */
  void merge(MstatsGroups later) {
    later.reserveCounted();
    for (Group theirs : later.groups.values()) {
      Group mine = groups.get(theirs.values);
      if (mine == null) {
        groups.put(theirs.values, theirs);
        continue;
      }
      forEach(
          theirs,
          (start, states) -> {
            MetricState[] own = find(mine, start);
            if (own == null) {
              put(mine, start, states);
              return;
            }
            memory.release(GROUP_BYTES);
            if (own.length < states.length) {
              own = Arrays.copyOf(own, states.length);
              put(mine, start, own);
            }
            for (int c = 0; c < states.length; c++) {
              if (states[c] == null) {
                continue;
              }
              if (own[c] == null) {
                own[c] = states[c];
              } else {
                own[c].merge(states[c]);
                memory.release(COLUMN_BYTES);
              }
            }
          });
    }
  }

  private static final Comparator<Cell> ORDER =
      (a, b) -> {
        int byTime = Long.compare(a.start(), b.start());
        if (byTime != 0) {
          return byTime;
        }
        for (int i = 0; i < a.values().size(); i++) {
          int byValue = a.values().get(i).compareTo(b.values().get(i));
          if (byValue != 0) {
            return byValue;
          }
        }
        return 0;
      };
}
