package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.AggregateFunction;
import io.quarry.ql.ast.Aggregation;
import io.quarry.ql.ast.StatsCommand;
import io.quarry.ql.engine.aggregation.WildcardFields;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * {@code stats} with wildcard fields ({@code stats avg(*)}, {@code sum(*_ms) AS *_total}): each
 * wildcard aggregation is applied to every field of the rows its pattern matches (the by-fields
 * aside; fields starting with {@code _} only when the pattern does), one column per field named
 * {@code f(field)} or by the {@code AS} name with its {@code *} replaced by what the wildcard
 * matched. A column no group has a value in (an average of text) is left out. Each matched field is
 * a {@code stats} of its own by the same fields, the other aggregations one more (which also gives
 * the groups and their order); their rows are joined by group at the end. Runs on rows, as a
 * map/reduce {@link Aggregator}.
 */
public final class WildcardStatsOperator implements Aggregator {
  private final StatsCommand command;
  private final RowSink downstream;
  private final MemoryTracker memory;
  private final StatsOperator plain;
  private final List<Integer> wildcards = new ArrayList<>();
  private final List<Pattern> patterns = new ArrayList<>();

  /** Per wildcard aggregation (by index) and matched field, its stats. */
  private final Map<Integer, TreeMap<String, StatsOperator>> expanded = new HashMap<>();

  public WildcardStatsOperator(StatsCommand command, RowSink downstream, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.memory = requireNonNull(memory, "memory is null");
    List<Aggregation> others = new ArrayList<>();
    List<Aggregation> aggregations = command.aggregations();
    for (int i = 0; i < aggregations.size(); i++) {
      Aggregation aggregation = aggregations.get(i);
      if (WildcardFields.isWildcard(aggregation)) {
        wildcards.add(i);
        patterns.add(WildcardFields.pattern(aggregation.field().orElseThrow()));
        expanded.put(i, new TreeMap<>());
      } else {
        others.add(aggregation);
      }
    }
    if (others.isEmpty()) {
      others.add(new Aggregation(AggregateFunction.COUNT, Optional.empty(), WildcardFields.GROUPS));
    }
    this.plain =
        new StatsOperator(
            new StatsCommand(others, command.groupBy(), command.position()), PARTIAL, memory);
  }

  @Override
  public boolean accept(Row row) {
    plain.accept(row);
    for (String field : row.discoverableFieldNames()) {
      if (command.groupBy().contains(field)) {
        continue;
      }
      for (int w = 0; w < wildcards.size(); w++) {
        int index = wildcards.get(w);
        String wildcard = command.aggregations().get(index).field().orElseThrow();
        if (field.startsWith("_") && !wildcard.startsWith("_")) {
          continue;
        }
        if (patterns.get(w).matcher(field).matches()) {
          expanded.get(index).computeIfAbsent(field, f -> stats(index, f, memory)).accept(row);
        }
      }
    }
    return true;
  }

  /** The stats of wildcard aggregation {@code index} over one matched field. */
  private StatsOperator stats(int index, String field, MemoryTracker tracker) {
    Aggregation wildcard = command.aggregations().get(index);
    Aggregation concrete =
        new Aggregation(
            wildcard.function(),
            Optional.of(field),
            outputName(index, field),
            wildcard.percentile());
    return new StatsOperator(
        new StatsCommand(List.of(concrete), command.groupBy(), command.position()),
        PARTIAL,
        tracker);
  }

  /** {@code f(field)}, or the AS name with each {@code *} replaced by what a wildcard matched. */
  private String outputName(int index, String field) {
    return WildcardFields.outputName(
        command.aggregations().get(index), patterns.get(wildcards.indexOf(index)), field);
  }

  @Override
  public Aggregator newPartial() {
    return new WildcardStatsOperator(command, PARTIAL, memory.sibling());
  }

  @Override
  public boolean partialsOutliveMerges() {
    return true;
  }

  @Override
  public void merge(Aggregator other) {
    if (!(other instanceof WildcardStatsOperator partial) || !partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge another aggregation");
    }
    plain.merge(partial.plain);
    partial.expanded.forEach(
        (index, fields) ->
            fields.forEach(
                (field, theirs) ->
                    expanded
                        .get(index)
                        .computeIfAbsent(field, f -> stats(index, f, memory))
                        .merge(theirs)));
  }

  @Override
  public boolean snapshot(RowSink target) {
    emit(target);
    return true;
  }

  @Override
  public void finish() {
    emit(downstream);
    expanded.values().forEach(Map::clear);
    memory.release();
  }

  /** Joins the stats' rows by group into {@code target} and finishes it. */
  private void emit(RowSink target) {
    Map<List<String>, Map<String, Object>> rows = new LinkedHashMap<>();
    plain.snapshot(collect(rows, true));
    List<List<String>> columns = new ArrayList<>(); // per wildcard, its columns with a value
    for (int index : wildcards) {
      List<String> withValues = new ArrayList<>();
      for (Map.Entry<String, StatsOperator> entry : expanded.get(index).entrySet()) {
        String column = outputName(index, entry.getKey());
        boolean[] any = new boolean[1];
        entry.getValue().snapshot(collect(rows, false, column, any));
        if (any[0]) {
          withValues.add(column);
        }
      }
      columns.add(withValues);
    }
    for (Map.Entry<List<String>, Map<String, Object>> entry : rows.entrySet()) {
      Map<String, Object> values = entry.getValue();
      Map<String, Object> row = new LinkedHashMap<>();
      for (String field : command.groupBy()) {
        if (values.containsKey(field)) {
          row.put(field, values.get(field));
        }
      }
      int w = 0;
      for (int i = 0; i < command.aggregations().size(); i++) {
        if (wildcards.contains(i)) {
          for (String column : columns.get(w)) {
            row.put(column, values.get(column));
          }
          w++;
        } else {
          String name = command.aggregations().get(i).outputName();
          row.put(name, values.get(name));
        }
      }
      if (!target.accept(new MapRow(row))) {
        break;
      }
    }
    target.finish();
  }

  private RowSink collect(Map<List<String>, Map<String, Object>> rows, boolean groups) {
    return collect(rows, groups, null, null);
  }

  /**
   * Puts each stats row's values into its group's row: the plain stats make the groups ({@code
   * groups}), a field's stats only fill in {@code column} of groups that exist.
   */
  private RowSink collect(
      Map<List<String>, Map<String, Object>> rows, boolean groups, String column, boolean[] any) {
    return new RowSink() {
      @Override
      public boolean accept(Row row) {
        List<String> key = new ArrayList<>(command.groupBy().size());
        for (String field : command.groupBy()) {
          List<Object> values = row.values(field);
          key.add(values.isEmpty() ? "" : Values.toText(values.get(0)));
        }
        Map<String, Object> values =
            groups ? rows.computeIfAbsent(key, k -> new HashMap<>()) : rows.get(key);
        if (values == null) {
          return true;
        }
        for (String field : row.fieldNames()) {
          List<Object> value = row.values(field);
          if (!value.isEmpty()) {
            values.put(field, value.size() == 1 ? value.get(0) : value);
            if (column != null && field.equals(column)) {
              any[0] = true;
            }
          }
        }
        return true;
      }

      @Override
      public void finish() {}
    };
  }
}
