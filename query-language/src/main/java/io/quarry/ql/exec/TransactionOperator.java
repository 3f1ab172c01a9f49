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
 * event then starts a new one. Events missing a field are not part of any transaction; without
 * fields every event has the same key. An event matching {@code endswith} (the newest event of a
 * transaction) closes the open one of its key and starts a new one; an event matching {@code
 * startswith} (the oldest) joins and closes it. A transaction without a required start or end is
 * evicted: dropped, or with {@code keepevicted=true} kept with {@code closed_txn=0} (1 for the
 * others).
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

  private final java.util.function.Predicate<Row> starts;
  private final java.util.function.Predicate<Row> ends;
  private final Evaluator evaluator;

  /** One transaction's events, newest first, as they arrived. */
  private static final class Transaction {
    final List<Row> events = new ArrayList<>();
    long newest = Long.MIN_VALUE;
    long oldest = Long.MAX_VALUE;
    boolean started; // met its startswith event
    boolean ended; // began with its endswith event

    void add(Row row, long time) {
      events.add(row);
      newest = Math.max(newest, time);
      oldest = Math.min(oldest, time);
    }
  }

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
    this.starts = command.startsWith().map(this::predicate).orElse(null);
    this.ends = command.endsWith().map(this::predicate).orElse(null);
  }

  private java.util.function.Predicate<Row> predicate(TransactionCommand.Filter filter) {
    return filter.search() != null
        ? RowPredicates.compile(filter.search())
        : row -> evaluator.test(filter.condition(), row);
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
    boolean isEnd = ends != null && ends.test(row);
    if (transaction != null && (isEnd || ends(transaction, time))) {
      close(open.remove(key));
      transaction = null;
    }
    if (transaction == null) {
      transaction = new Transaction();
      transaction.ended = isEnd;
      open.put(key, transaction);
      memory.add(MemoryTracker.ENTRY_BYTES);
    }
    transaction.add(row, time);
    memory.add(MemoryTracker.ROW_BYTES);
    if (starts != null && starts.test(row)) {
      transaction.started = true;
      close(open.remove(key)); // events are newest first: its start is its oldest event
    }
    return true;
  }

  /** Whether a transaction has the start and end its filters ask for (else it is evicted). */
  private boolean complete(Transaction transaction) {
    return (starts == null || transaction.started) && (ends == null || transaction.ended);
  }

  private void close(Transaction transaction) {
    if (complete(transaction) || command.keepEvicted()) {
      closed.add(transaction);
    }
  }

  /** Whether an event at {@code time} (older than the transaction's events) starts a new one. */
  private boolean ends(Transaction transaction, long time) {
    return transaction.events.size() >= command.maxEvents()
        || (command.maxSpanMicros() >= 0 && transaction.newest - time > command.maxSpanMicros())
        || (command.maxPauseMicros() >= 0 && transaction.oldest - time > command.maxPauseMicros());
  }

  @Override
  public void finish() {
    open.values().forEach(this::close);
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

  private Row result(Transaction transaction) {
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
    if (command.keepEvicted()) {
      values.put("closed_txn", complete(transaction) ? 1L : 0L);
    }
    return new MapRow(values);
  }
}
