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

/**
 * {@code transaction}: events whose values of the fields (first value of each, as text) agree are
 * one transaction. An event may hold only some of the fields: it joins the newest open transaction
 * that contradicts none of its values and shares at least one (adding the values it brings); with
 * {@code connected=false} also one that shares none (else, with {@code connected=true}, the
 * default, such an event starts a new transaction). Events arrive newest first (time-ordered mode),
 * so a transaction grows backwards in time; it closes when the next event joining it is further
 * back than {@code maxpause} from its oldest event, than {@code maxspan} from its newest, or when
 * it holds {@code maxevents}; the event then starts a new one. Events holding none of the fields
 * are part of no transaction (passed on with {@code _txn_orphan=1} when {@code keeporphans=true});
 * without fields every event has the same key. An event matching {@code endswith} (the newest event
 * of a transaction) closes the open one of its key and starts a new one; an event matching {@code
 * startswith} (the oldest) joins and closes it. A transaction without a required start or end is
 * evicted: dropped, or with {@code keepevicted=true} kept with {@code closed_txn=0} (1 for the
 * others).
 *
 * <p>A result is one row per transaction, newest transaction first: {@code _time} of its first
 * (oldest) event, {@code _raw} of its events joined by newlines in time order, {@code duration}
 * (seconds from first to last event), {@code eventcount}, and every other field of its events with
 * their distinct values sorted as text (a multivalue when several), or with {@code mvlist} every
 * value in time order. All events are held until the input ends: counted against the search's
 * memory limit.
 */
public final class TransactionOperator implements RowSink {
  private static final String TIME = "_time";
  private static final String RAW = "_raw";

  private final TransactionCommand command;
  private final RowSink downstream;
  private final MemoryTracker memory;

  /** Open transactions by each field and value they hold (NUL between), oldest opened first. */
  private final Map<String, List<Transaction>> open = new HashMap<>();

  private final LinkedHashSet<Transaction> opened = new LinkedHashSet<>();
  private long transactionsOpened;
  private final List<Transaction> closed = new ArrayList<>();

  /** {@code keeporphans}: the events of no transaction, marked, with their times. */
  private final List<Map.Entry<Long, Row>> orphans = new ArrayList<>();

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

    /** The value of each field the transaction's events hold. */
    final Map<String, String> keys = new HashMap<>();

    /** When it opened, in the order of the input: the newest agreeing transaction is joined. */
    long opened;

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
    Map<String, String> keys = new LinkedHashMap<>();
    for (String field : command.fields()) {
      List<Object> values = row.values(field);
      if (!values.isEmpty()) {
        keys.put(field, Values.toText(values.get(0)));
      }
    }
    List<Object> times = row.values(TIME);
    long time = !times.isEmpty() && times.get(0) instanceof Long micros ? micros : 0;
    if (!command.fields().isEmpty() && keys.isEmpty()) {
      if (command.keepOrphans()) {
        orphans.add(Map.entry(time, new AssignedRow(row, Map.of("_txn_orphan", 1L))));
        memory.add(MemoryTracker.ROW_BYTES);
      }
      return true;
    }
    Transaction transaction = find(keys);
    boolean isEnd = ends != null && ends.test(row);
    if (transaction != null && (isEnd || ends(transaction, time))) {
      close(transaction);
      transaction = null;
    }
    if (transaction == null) {
      transaction = new Transaction();
      transaction.ended = isEnd;
      transaction.opened = ++transactionsOpened;
      opened.add(transaction);
      memory.add(MemoryTracker.ENTRY_BYTES);
    }
    transaction.add(row, time);
    for (Map.Entry<String, String> key : keys.entrySet()) {
      if (transaction.keys.putIfAbsent(key.getKey(), key.getValue()) == null) {
        open.computeIfAbsent(indexKey(key.getKey(), key.getValue()), k -> new ArrayList<>())
            .add(transaction);
      }
    }
    if (keys.isEmpty() && transaction.keys.isEmpty()) {
      open.computeIfAbsent("", k -> new ArrayList<>()).add(transaction); // no fields: one key
      transaction.keys.put("", "");
    }
    memory.add(MemoryTracker.ROW_BYTES);
    if (starts != null && starts.test(row)) {
      transaction.started = true;
      close(transaction); // events are newest first: its start is its oldest event
    }
    return true;
  }

  private static String indexKey(String field, String value) {
    return field.isEmpty() ? "" : field + "\u0000" + value;
  }

  /**
   * The newest open transaction the event with these field values joins: one that agrees with every
   * value it holds and shares at least one of them (consistent); with {@code connected=false} also
   * one that shares none but contradicts none.
   */
  private Transaction find(Map<String, String> keys) {
    if (keys.isEmpty()) {
      List<Transaction> all = open.get("");
      return all == null || all.isEmpty() ? null : all.get(all.size() - 1);
    }
    Transaction newest = null;
    for (Map.Entry<String, String> key : keys.entrySet()) {
      List<Transaction> candidates = open.get(indexKey(key.getKey(), key.getValue()));
      if (candidates == null) {
        continue;
      }
      for (Transaction candidate : candidates) {
        if ((newest == null || candidate.opened > newest.opened) && agrees(candidate, keys)) {
          newest = candidate;
        }
      }
    }
    if (newest != null || command.connected()) {
      return newest;
    }
    for (Transaction candidate : opened.reversed()) {
      if (agrees(candidate, keys)) {
        return candidate; // shares no value, contradicts none: joins when not connected
      }
    }
    return null;
  }

  /** Whether a transaction holds no other value for any of the event's fields. */
  private static boolean agrees(Transaction transaction, Map<String, String> keys) {
    for (Map.Entry<String, String> key : keys.entrySet()) {
      String held = transaction.keys.get(key.getKey());
      if (held != null && !held.equals(key.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** Whether a transaction has the start and end its filters ask for (else it is evicted). */
  private boolean complete(Transaction transaction) {
    return (starts == null || transaction.started) && (ends == null || transaction.ended);
  }

  private void close(Transaction transaction) {
    if (!opened.remove(transaction)) {
      return;
    }
    for (Map.Entry<String, String> key : transaction.keys.entrySet()) {
      List<Transaction> list = open.get(indexKey(key.getKey(), key.getValue()));
      if (list != null) {
        list.remove(transaction);
        if (list.isEmpty()) {
          open.remove(indexKey(key.getKey(), key.getValue()));
        }
      }
    }
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
    new ArrayList<>(opened).forEach(this::close);
    open.clear();
    List<Map.Entry<Long, Row>> results = new ArrayList<>(closed.size() + orphans.size());
    for (Transaction transaction : closed) {
      results.add(Map.entry(transaction.oldest, result(transaction)));
    }
    results.addAll(orphans);
    results.sort(Comparator.comparingLong((Map.Entry<Long, Row> e) -> e.getKey()).reversed());
    for (Map.Entry<Long, Row> result : results) {
      if (!downstream.accept(result.getValue())) {
        break;
      }
    }
    closed.clear();
    orphans.clear();
    memory.release();
    downstream.finish();
  }

  private Row result(Transaction transaction) {
    Map<String, java.util.Collection<Object>> fields = new LinkedHashMap<>();
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
        fields
            .computeIfAbsent(
                field, f -> command.listsValues(f) ? new ArrayList<>() : new LinkedHashSet<>())
            .addAll(values);
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put(TIME, transaction.oldest);
    if (!raw.isEmpty()) {
      values.put(RAW, raw.toString());
    }
    fields.forEach(
        (field, collected) -> {
          List<Object> list = new ArrayList<>(collected);
          if (!command.listsValues(field)) {
            // a set of distinct values, sorted as text (Splunk's mvlist=false)
            list.sort(Comparator.comparing(Values::toText));
          }
          if (!list.isEmpty()) {
            values.put(field, list.size() == 1 ? list.get(0) : List.copyOf(list));
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
