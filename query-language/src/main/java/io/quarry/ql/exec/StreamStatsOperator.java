package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.StreamStatsCommand;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code streamstats}: each row, in arrival order (newest first in a time-ordered search, as in
 * Splunk), gets the aggregations of its group over the rows before it — and itself unless {@code
 * current=false}. Without a window the groups accumulate as they go; with {@code window=N} the
 * aggregations are recomputed over the last N rows (of the stream when {@code global}, else of the
 * row's group), so a window costs O(N) per row; {@code time_window} keeps only the rows less than
 * the span from the row's {@code _time}. {@code reset_on_change}, {@code reset_before} and {@code
 * reset_after} clear every group's state. A row missing a by-field passes unchanged. What it holds
 * — the running groups with their values, the rows in the windows — counts against the search's
 * memory limit (and the breaker over all searches), so an unbounded {@code window} or many groups
 * fail the search with a memory error rather than exhausting the heap.
 */
final class StreamStatsOperator implements RowSink {
  private final StreamStatsCommand command;
  private final StatsOperator stats;
  private final RowSink downstream;
  private final Map<List<Object>, StatsOperator.Group> running = new HashMap<>();
  private final ArrayDeque<Entry> globalWindow = new ArrayDeque<>();
  private final Map<List<Object>, ArrayDeque<Entry>> groupWindows = new HashMap<>();

  private final Evaluator evaluator;
  private final MemoryTracker memory;
  private List<Object> previousKey;

  private record Entry(List<Object> key, Row row, long time) {}

  StreamStatsOperator(
      StreamStatsCommand command, RowSink downstream, Evaluator evaluator, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.stats = new StatsOperator(command.stats(), Aggregator.PARTIAL);
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
  }

  /** Every aggregation starts afresh. */
  private void reset() {
    running.clear();
    globalWindow.clear();
    groupWindows.clear();
    memory.release();
  }

  @Override
  public boolean accept(Row row) {
    List<List<Object>> keys = stats.groupsOf(row);
    if (keys.isEmpty()) {
      return downstream.accept(row);
    }
    List<Object> key = keys.getFirst();
    if (command.resetOnChange() && previousKey != null && !previousKey.equals(key)) {
      reset();
    }
    previousKey = key;
    if (command.resetBefore().isPresent() && evaluator.test(command.resetBefore().get(), row)) {
      reset();
    }
    Map<String, Object> values = new LinkedHashMap<>();
    if (!command.windowed()) {
      StatsOperator.Group group = running.get(key);
      if (group == null) {
        group = stats.new Group();
        running.put(key, group);
        memory.add(group.bytes(key));
      }
      if (command.current()) {
        memory.add(group.add(row));
        group.putResults(values);
      } else {
        group.putResults(values);
        memory.add(group.add(row));
      }
    } else {
      ArrayDeque<Entry> window =
          command.global()
              ? globalWindow
              : groupWindows.computeIfAbsent(key, k -> new ArrayDeque<>());
      long time = time(row);
      if (command.timeWindowMicros() > 0) {
        // rows further than the window from this one's time leave (time-ordered either way)
        int before = window.size();
        window.removeIf(
            e ->
                time == Long.MIN_VALUE
                    || e.time() == Long.MIN_VALUE
                    || Math.abs(time - e.time()) >= command.timeWindowMicros());
        memory.add(-MemoryTracker.ROW_BYTES * (before - window.size()));
      }
      Entry entry = new Entry(key, row, time);
      if (command.current()) {
        push(window, entry);
      }
      StatsOperator.Group group = stats.new Group();
      for (Entry earlier : window) {
        if (earlier.key().equals(key)) {
          group.add(earlier.row()); // a group of the moment: dropped after this row
        }
      }
      group.putResults(values);
      if (!command.current()) {
        push(window, entry);
      }
    }
    if (command.resetAfter().isPresent() && evaluator.test(command.resetAfter().get(), row)) {
      reset();
    }
    return downstream.accept(new AssignedRow(row, values));
  }

  /** A row's {@code _time} in epoch microseconds, or Long.MIN_VALUE without one. */
  private static long time(Row row) {
    List<Object> times = row.values(TimeField.NAME);
    return !times.isEmpty() && times.get(0) instanceof Long micros ? micros : Long.MIN_VALUE;
  }

  /** Keeps a row in a window (counted: a row held); the oldest leaves past {@code window=N}. */
  private void push(ArrayDeque<Entry> window, Entry entry) {
    window.addLast(entry);
    memory.add(MemoryTracker.ROW_BYTES);
    if (command.window() > 0 && window.size() > command.window()) {
      window.removeFirst();
      memory.add(-MemoryTracker.ROW_BYTES);
    }
  }

  @Override
  public void finish() {
    running.clear();
    globalWindow.clear();
    groupWindows.clear();
    memory.release();
    downstream.finish();
  }
}
