package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.TransactionCommand;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code transaction} on rows: each row's first value of every field (as text), its time and
 * whether it matches {@code startswith}/{@code endswith} into {@link TransactionGroups} (the
 * grouping, its rules and the results' fields, shared with the page stage {@link
 * TransactionStage}), one row per result once the input ends, newest transaction first. All events
 * are held until the input ends: counted against the search's memory limit.
 */
public final class TransactionOperator implements RowSink {
  private final TransactionCommand command;
  private final RowSink downstream;
  private final MemoryTracker memory;
  private final TransactionGroups<Row> groups;
  private final Predicate<Row> starts;
  private final Predicate<Row> ends;
  private final Evaluator evaluator;

  /** A row's fields as a transaction combines them: every field it has, extractions included. */
  private static final TransactionGroups.Fields<Row> FIELDS =
      new TransactionGroups.Fields<>() {
        @Override
        public Iterable<String> names(Row row) {
          return row.discoverableFieldNames();
        }

        @Override
        public List<Object> values(Row row, String field) {
          return row.values(field);
        }
      };

  public TransactionOperator(TransactionCommand command, RowSink downstream, MemoryTracker memory) {
    this(
        command,
        downstream,
        memory,
        new Evaluator(java.time.Instant.now(), java.time.ZoneOffset.UTC));
  }

  /** As above, {@code eval(…)} filters evaluated by {@code evaluator}. */
  public TransactionOperator(
      TransactionCommand command, RowSink downstream, MemoryTracker memory, Evaluator evaluator) {
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.evaluator = requireNonNull(evaluator, "evaluator is null");
    this.groups = new TransactionGroups<>(command, memory);
    this.starts = command.startsWith().map(this::predicate).orElse(null);
    this.ends = command.endsWith().map(this::predicate).orElse(null);
  }

  private Predicate<Row> predicate(TransactionCommand.Filter filter) {
    return filter.search() != null
        ? RowPredicates.compile(filter.search())
        : row -> evaluator.test(filter.condition(), row);
  }

  @Override
  public boolean accept(Row row) {
    Map<String, String> keys = new LinkedHashMap<>();
    for (String field : command.fields()) {
      List<Object> values = row.values(field);
      if (!values.isEmpty()) {
        keys.put(field, Values.toText(values.get(0)));
      }
    }
    List<Object> times = row.values(TransactionGroups.TIME);
    long time = !times.isEmpty() && times.get(0) instanceof Long micros ? micros : 0;
    if (groups.orphan(keys)) {
      if (command.keepOrphans()) {
        groups.keepOrphan(row, time);
        memory.add(MemoryTracker.ROW_BYTES);
      }
      return true;
    }
    boolean isEnd = ends != null && ends.test(row);
    boolean isStart = starts != null && starts.test(row);
    groups.add(row, keys, time, isStart, isEnd);
    memory.add(MemoryTracker.ROW_BYTES);
    return true;
  }

  @Override
  public void finish() {
    for (TransactionGroups.Result<Row> result : groups.finish()) {
      Row row =
          result.orphan()
              ? new AssignedRow(result.events().get(0), Map.of(TransactionGroups.ORPHAN, 1L))
              : new MapRow(TransactionGroups.combined(command, result, FIELDS));
      if (!downstream.accept(row)) {
        break;
      }
    }
    memory.release();
    downstream.finish();
  }
}
