package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.TopCommand;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * {@code top} and {@code rare}: counts each combination of the fields' values per by-group (a row
 * missing a field is not counted; a multivalue field counts once per value), then per group emits
 * the {@code limit} most (least) common combinations with their count and their percentage of the
 * group's counted rows. Groups come out in ascending order of their values; ties by value. A {@code
 * _time} value comes out as a time ({@link TimeField#groupValue}).
 */
public final class TopOperator implements Aggregator {
  private final TopCommand command;
  private final RowSink downstream;
  private final Map<List<String>, Group> groups = new HashMap<>();

  private static final class Group {
    final Map<List<String>, long[]> counts = new HashMap<>();
    long total;
  }

  private final MemoryTracker memory;

  public TopOperator(TopCommand command, RowSink downstream) {
    this(command, downstream, MemoryTracker.unbounded(command.name()));
  }

  /** As above, the value combinations it counts counted by {@code memory}. */
  public TopOperator(TopCommand command, RowSink downstream, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  public Aggregator newPartial() {
    return new TopOperator(command, PARTIAL, memory.sibling());
  }

  @Override
  public boolean partialsOutliveMerges() {
    return true;
  }

  @Override
  public void merge(Aggregator other) {
    if (!(other instanceof TopOperator partial) || !partial.command.equals(command)) {
      throw new IllegalArgumentException("cannot merge another top");
    }
    partial.memory.release(); // what its groups add here is counted again, without duplicates
    partial.groups.forEach(
        (key, theirs) -> {
          Group ours = groups.putIfAbsent(key, theirs);
          if (ours == null) {
            long bytes = keyBytes(key);
            for (List<String> values : theirs.counts.keySet()) {
              bytes += keyBytes(values);
            }
            memory.add(bytes);
            return;
          }
          ours.total += theirs.total;
          theirs.counts.forEach(
              (values, count) -> {
                long[] counter = ours.counts.get(values);
                if (counter == null) {
                  ours.counts.put(values, new long[] {count[0]});
                  memory.add(keyBytes(values));
                } else {
                  counter[0] += count[0];
                }
              });
        });
    partial.groups.clear();
  }

  @Override
  public boolean accept(Row row) {
    List<List<String>> byKeys = combinations(row, command.by());
    List<List<String>> valueKeys = combinations(row, command.fields());
    if (valueKeys.isEmpty()) {
      return true;
    }
    for (List<String> byKey : byKeys) {
      Group group = groups.get(byKey);
      if (group == null) {
        group = new Group();
        groups.put(byKey, group);
        memory.add(keyBytes(byKey));
      }
      group.total++;
      for (List<String> valueKey : valueKeys) {
        long[] count = group.counts.get(valueKey);
        if (count == null) {
          group.counts.put(valueKey, new long[] {1});
          memory.add(keyBytes(valueKey));
        } else {
          count[0]++;
        }
      }
    }
    return true;
  }

  private static long keyBytes(List<String> key) {
    long bytes = MemoryTracker.ENTRY_BYTES;
    for (String value : key) {
      bytes += MemoryTracker.valueBytes(value);
    }
    return bytes;
  }

  /** Every combination of the fields' values (empty when a field is missing). */
  private static List<List<String>> combinations(Row row, List<String> fields) {
    List<List<String>> into = new ArrayList<>();
    collect(row, fields, 0, new ArrayList<>(), into);
    return into;
  }

  private static void collect(
      Row row, List<String> fields, int index, List<String> prefix, List<List<String>> into) {
    if (index == fields.size()) {
      into.add(List.copyOf(prefix));
      return;
    }
    for (Object value : new LinkedHashSet<>(row.values(fields.get(index)))) {
      prefix.add(Values.toText(value));
      collect(row, fields, index + 1, prefix, into);
      prefix.remove(prefix.size() - 1);
    }
  }

  @Override
  public void finish() {
    emit(downstream);
    groups.clear();
    memory.release();
    downstream.finish();
  }

  /** Emits the most (or least) common combinations so far and finishes {@code target}. */
  @Override
  public boolean snapshot(RowSink target) {
    emit(target);
    target.finish();
    return true;
  }

  private void emit(RowSink target) {
    Comparator<List<String>> byValues = TopOperator::compareKeys;
    List<List<String>> byKeys = new ArrayList<>(groups.keySet());
    byKeys.sort(byValues);
    emit:
    for (List<String> byKey : byKeys) {
      Group group = groups.get(byKey);
      List<Map.Entry<List<String>, long[]>> entries = new ArrayList<>(group.counts.entrySet());
      Comparator<Map.Entry<List<String>, long[]>> byCount =
          Comparator.comparingLong(e -> e.getValue()[0]);
      entries.sort(
          (command.rare() ? byCount : byCount.reversed())
              .thenComparing(Map.Entry::getKey, byValues));
      long emitted = 0;
      for (Map.Entry<List<String>, long[]> entry : entries) {
        if (emitted++ >= command.limit()) {
          break;
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < byKey.size(); i++) {
          values.put(command.by().get(i), TimeField.groupValue(command.by().get(i), byKey.get(i)));
        }
        for (int i = 0; i < entry.getKey().size(); i++) {
          values.put(
              command.fields().get(i),
              TimeField.groupValue(command.fields().get(i), entry.getKey().get(i)));
        }
        long count = entry.getValue()[0];
        if (command.showCount()) {
          values.put(command.countField(), count);
        }
        if (command.showPercent()) {
          values.put(
              command.percentField(),
              BigDecimal.valueOf(count * 100.0 / group.total)
                  .setScale(6, RoundingMode.HALF_UP)
                  .doubleValue());
        }
        if (!target.accept(new MapRow(values))) {
          break emit;
        }
      }
    }
  }

  private static int compareKeys(List<String> a, List<String> b) {
    for (int i = 0; i < a.size(); i++) {
      int c = Values.NATURAL_ORDER.compare(a.get(i), b.get(i));
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }
}
