package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.EventStatsCommand;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code eventstats}: holds every row until the input ends, aggregating as {@code stats} would,
 * then emits the rows in their order, each with its group's aggregations added. A row in several
 * groups (a multivalue by-field) gets the first group's; a row missing a by-field gets none. Holds
 * at most {@link EventStatsStage#MAX_ROWS} rows: past that it stops reading and says so in the rows
 * it emits.
 */
final class EventStatsOperator implements RowSink {
  private final StatsOperator stats;
  private final RowSink downstream;
  private final List<Row> rows = new ArrayList<>();
  private final List<List<Object>> rowGroups = new ArrayList<>();
  private final Map<List<Object>, StatsOperator.Group> groups = new HashMap<>();
  private final MemoryTracker memory;
  private boolean truncated;

  EventStatsOperator(EventStatsCommand command, RowSink downstream, MemoryTracker memory) {
    this.stats = new StatsOperator(command.stats(), Aggregator.PARTIAL);
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  public boolean accept(Row row) {
    if (rows.size() == EventStatsStage.MAX_ROWS) {
      truncated = true;
      return false;
    }
    List<List<Object>> keys = stats.groupsOf(row);
    for (List<Object> key : keys) {
      StatsOperator.Group group = groups.get(key);
      if (group == null) {
        group = stats.new Group();
        groups.put(key, group);
        memory.add(MemoryTracker.ENTRY_BYTES + 120L * stats.command().aggregations().size());
      }
      memory.add(group.add(row)); // distinct values and the like grow with the rows
    }
    rows.add(row);
    memory.add(MemoryTracker.ROW_BYTES);
    rowGroups.add(keys.isEmpty() ? null : keys.getFirst());
    return true;
  }

  @Override
  public void finish() {
    Map<List<Object>, Map<String, Object>> results = new HashMap<>();
    for (Map.Entry<List<Object>, StatsOperator.Group> group : groups.entrySet()) {
      Map<String, Object> values = new LinkedHashMap<>();
      group.getValue().putResults(values);
      results.put(group.getKey(), values);
    }
    for (int i = 0; i < rows.size(); i++) {
      List<Object> key = rowGroups.get(i);
      Map<String, Object> values = key == null ? Map.of() : results.get(key);
      if (truncated) {
        values = new LinkedHashMap<>(values);
        values.put(
            "eventstats_truncated",
            "only the first " + EventStatsStage.MAX_ROWS + " rows were read");
      }
      if (!downstream.accept(
          values.isEmpty() ? rows.get(i) : new AssignedRow(rows.get(i), values))) {
        break;
      }
    }
    rows.clear();
    rowGroups.clear();
    groups.clear();
    memory.release();
    downstream.finish();
  }
}
