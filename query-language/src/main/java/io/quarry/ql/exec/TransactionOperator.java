package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.TransactionCommand;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code transaction}: events sharing the values of every field (first value of each, as text) are
 * one transaction. Events arrive newest first (time-ordered mode), so a transaction grows backwards
 * in time; it closes when the next event of its key is further back than {@code maxpause} from its
 * oldest event, than {@code maxspan} from its newest, or when it holds {@code maxevents}; the next
 * event then starts a new one. Events missing a field are not part of any transaction.
 *
 * <p>A result is one row per transaction, newest transaction first: {@code _time} of its first
 * (oldest) event, {@code _raw} of its events joined by newlines in time order, {@code duration}
 * (seconds from first to last event), {@code eventcount}, and every other field of its events with
 * their distinct values in time order (a multivalue when several). All events are held until the
 * input ends: counted against the search's memory limit.
 */
public final class TransactionOperator implements RowSink {
  private static final String TIME = "_time";
  private static final String RAW = "_raw";

  private final TransactionCommand command;
  private final RowSink downstream;
  private final MemoryTracker memory;
  private final Map<List<String>, Transaction> open = new HashMap<>();
  private final List<Transaction> closed = new ArrayList<>();

  /** One transaction's events, newest first, as they arrived. */
  private static final class Transaction {
    final List<Row> events = new ArrayList<>();
    long newest = Long.MIN_VALUE;
    long oldest = Long.MAX_VALUE;

    void add(Row row, long time) {
      events.add(row);
      newest = Math.max(newest, time);
      oldest = Math.min(oldest, time);
    }
  }

  public TransactionOperator(TransactionCommand command, RowSink downstream, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.downstream = requireNonNull(downstream, "downstream is null");
    this.memory = requireNonNull(memory, "memory is null");
  }

  @Override
  public boolean accept(Row row) {
    List<String> key = new ArrayList<>(command.fields().size());
    for (String field : command.fields()) {
      List<Object> values = row.values(field);
      if (values.isEmpty()) {
        return true;
      }
      key.add(Values.toText(values.get(0)));
    }
    List<Object> times = row.values(TIME);
    long time = !times.isEmpty() && times.get(0) instanceof Long micros ? micros : 0;
    Transaction transaction = open.get(key);
    if (transaction != null && ends(transaction, time)) {
      closed.add(open.remove(key));
      transaction = null;
    }
    if (transaction == null) {
      transaction = new Transaction();
      open.put(key, transaction);
      memory.add(MemoryTracker.ENTRY_BYTES);
    }
    transaction.add(row, time);
    memory.add(MemoryTracker.ROW_BYTES);
    return true;
  }

  /** Whether an event at {@code time} (older than the transaction's events) starts a new one. */
  private boolean ends(Transaction transaction, long time) {
    return transaction.events.size() >= command.maxEvents()
        || (command.maxSpanMicros() >= 0 && transaction.newest - time > command.maxSpanMicros())
        || (command.maxPauseMicros() >= 0 && transaction.oldest - time > command.maxPauseMicros());
  }

  @Override
  public void finish() {
    closed.addAll(open.values());
    open.clear();
    closed.sort(Comparator.comparingLong((Transaction t) -> t.oldest).reversed());
    for (Transaction transaction : closed) {
      if (!downstream.accept(result(transaction))) {
        break;
      }
    }
    closed.clear();
    memory.release();
    downstream.finish();
  }

  private static Row result(Transaction transaction) {
    Map<String, Set<Object>> fields = new LinkedHashMap<>();
    StringBuilder raw = new StringBuilder();
    for (int i = transaction.events.size() - 1; i >= 0; i--) { // oldest first
      Row event = transaction.events.get(i);
      for (String field : event.discoverableFieldNames()) {
        if (field.equals(TIME)) {
          continue;
        }
        List<Object> values = event.values(field);
        if (field.equals(RAW)) {
          if (!values.isEmpty()) {
            raw.append(raw.isEmpty() ? "" : "\n").append(Values.toText(values.get(0)));
          }
          continue;
        }
        fields.computeIfAbsent(field, f -> new LinkedHashSet<>()).addAll(values);
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put(TIME, transaction.oldest);
    if (!raw.isEmpty()) {
      values.put(RAW, raw.toString());
    }
    fields.forEach(
        (field, distinct) -> {
          if (!distinct.isEmpty()) {
            values.put(
                field, distinct.size() == 1 ? distinct.iterator().next() : List.copyOf(distinct));
          }
        });
    long micros = transaction.newest - transaction.oldest;
    values.put("duration", micros % 1_000_000 == 0 ? (Object) (micros / 1_000_000) : micros / 1e6);
    values.put("eventcount", (long) transaction.events.size());
    return new MapRow(values);
  }
}
