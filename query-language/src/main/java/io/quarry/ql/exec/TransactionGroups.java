package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.ql.ast.TransactionCommand;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code transaction}'s grouping, whatever its events are ({@code E}: a (page, position) reference
 * for {@link TransactionOperator}): events whose values of the fields (first value of each, as
 * text) agree are one transaction. An event may hold only some of the fields: it joins the newest
 * open transaction that contradicts none of its values and shares at least one (adding the values
 * it brings); with {@code connected=false} also one that shares none (else, with {@code
 * connected=true}, the default, such an event starts a new transaction). Events arrive newest first
 * (time-ordered mode), so a transaction grows backwards in time; it closes when the next event
 * joining it is further back than {@code maxpause} from its oldest event, than {@code maxspan} from
 * its newest, or when it holds {@code maxevents}; the event then starts a new one. Events holding
 * none of the fields are part of no transaction (orphans, passed on with {@code _txn_orphan=1} when
 * {@code keeporphans=true}); without fields every event has the same key. An event matching {@code
 * endswith} (the newest event of a transaction) closes the open one of its key and starts a new
 * one; an event matching {@code startswith} (the oldest) joins and closes it. A transaction without
 * a required start or end is evicted: dropped, or with {@code keepevicted=true} kept with {@code
 * closed_txn=0} (1 for the others).
 *
 * <p>{@link #finish} gives the results newest transaction (by its oldest event) first, orphans
 * among them by their time; {@link #combined} makes a transaction's fields: {@code _time} of its
 * first (oldest) event, {@code _raw} of its events joined by newlines in time order, every other
 * field of its events in name order with their distinct values sorted as text (a multivalue when
 * several), or with {@code mvlist} every value in time order, then {@code duration} (seconds from
 * first to last event), {@code eventcount} and, with {@code keepevicted}, {@code closed_txn}. The
 * fields' order is the result's own, not the order its events list them in: Splunk's reference
 * calls them "the union of all other fields of each member" and fixes no order, and an event has no
 * one order (a listed event names its default, then index-time, then extracted fields; a page has
 * one column order for all its positions), so names sort. Each transaction is counted on the
 * search's memory ({@link MemoryTracker#ENTRY_BYTES}); the caller counts its events.
 */
final class TransactionGroups<E> {
  static final String TIME = "_time";
  static final String RAW = "_raw";
  static final String ORPHAN = "_txn_orphan";

  /**
   * A result: a transaction's events (newest first, as they arrived), or one orphan event.
   *
   * @param complete whether the transaction met the start and end its filters ask for
   */
  record Result<E>(List<E> events, long newest, long oldest, boolean complete, boolean orphan) {}

  /** An event's fields, in order, and their values, as a result combines them. */
  interface Fields<E> {
    Iterable<String> names(E event);

    List<Object> values(E event, String field);
  }

  private final TransactionCommand command;
  private final boolean needsStart;
  private final boolean needsEnd;
  private final MemoryTracker memory;

  /** Open transactions by each field and value they hold (NUL between), oldest opened first. */
  private final Map<String, List<Transaction<E>>> open = new HashMap<>();

  private final LinkedHashSet<Transaction<E>> opened = new LinkedHashSet<>();
  private long transactionsOpened;
  private final List<Result<E>> results = new ArrayList<>();

  /** One transaction's events, newest first, as they arrived. */
  private static final class Transaction<E> {
    final List<E> events = new ArrayList<>();
    long newest = Long.MIN_VALUE;
    long oldest = Long.MAX_VALUE;
    boolean started; // met its startswith event
    boolean ended; // began with its endswith event

    /** The value of each field the transaction's events hold. */
    final Map<String, String> keys = new HashMap<>();

    /** When it opened, in the order of the input: the newest agreeing transaction is joined. */
    long opened;

    void add(E event, long time) {
      events.add(event);
      newest = Math.max(newest, time);
      oldest = Math.min(oldest, time);
    }
  }

  TransactionGroups(TransactionCommand command, MemoryTracker memory) {
    this.command = requireNonNull(command, "command is null");
    this.memory = requireNonNull(memory, "memory is null");
    this.needsStart = command.startsWith().isPresent();
    this.needsEnd = command.endsWith().isPresent();
  }

  /** Whether an event holding these values of the fields is part of no transaction. */
  boolean orphan(Map<String, String> keys) {
    return !command.fields().isEmpty() && keys.isEmpty();
  }

  /** An orphan event at {@code time}, kept for the answer ({@code keeporphans=true}). */
  void keepOrphan(E event, long time) {
    results.add(new Result<>(List.of(event), time, time, true, true));
  }

  /**
   * The next (older) event: its values of the fields ({@link #orphan} false), its time in
   * microseconds, whether it matches {@code startswith} and {@code endswith}.
   */
  void add(E event, Map<String, String> keys, long time, boolean isStart, boolean isEnd) {
    Transaction<E> transaction = find(keys);
    if (transaction != null && (isEnd || ends(transaction, time))) {
      close(transaction);
      transaction = null;
    }
    if (transaction == null) {
      transaction = new Transaction<>();
      transaction.ended = isEnd;
      transaction.opened = ++transactionsOpened;
      opened.add(transaction);
      memory.add(MemoryTracker.ENTRY_BYTES);
    }
    transaction.add(event, time);
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
    if (isStart) {
      transaction.started = true;
      close(transaction); // events are newest first: its start is its oldest event
    }
  }

  private static String indexKey(String field, String value) {
    return field.isEmpty() ? "" : field + "\u0000" + value;
  }

  /**
   * The newest open transaction the event with these field values joins: one that agrees with every
   * value it holds and shares at least one of them (consistent); with {@code connected=false} also
   * one that shares none but contradicts none.
   */
  private Transaction<E> find(Map<String, String> keys) {
    if (keys.isEmpty()) {
      List<Transaction<E>> all = open.get("");
      return all == null || all.isEmpty() ? null : all.get(all.size() - 1);
    }
    Transaction<E> newest = null;
    for (Map.Entry<String, String> key : keys.entrySet()) {
      List<Transaction<E>> candidates = open.get(indexKey(key.getKey(), key.getValue()));
      if (candidates == null) {
        continue;
      }
      for (Transaction<E> candidate : candidates) {
        if ((newest == null || candidate.opened > newest.opened) && agrees(candidate, keys)) {
          newest = candidate;
        }
      }
    }
    if (newest != null || command.connected()) {
      return newest;
    }
    for (Transaction<E> candidate : opened.reversed()) {
      if (agrees(candidate, keys)) {
        return candidate; // shares no value, contradicts none: joins when not connected
      }
    }
    return null;
  }

  /** Whether a transaction holds no other value for any of the event's fields. */
  private static boolean agrees(Transaction<?> transaction, Map<String, String> keys) {
    for (Map.Entry<String, String> key : keys.entrySet()) {
      String held = transaction.keys.get(key.getKey());
      if (held != null && !held.equals(key.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** Whether a transaction has the start and end its filters ask for (else it is evicted). */
  private boolean complete(Transaction<?> transaction) {
    return (!needsStart || transaction.started) && (!needsEnd || transaction.ended);
  }

  private void close(Transaction<E> transaction) {
    if (!opened.remove(transaction)) {
      return;
    }
    for (Map.Entry<String, String> key : transaction.keys.entrySet()) {
      List<Transaction<E>> list = open.get(indexKey(key.getKey(), key.getValue()));
      if (list != null) {
        list.remove(transaction);
        if (list.isEmpty()) {
          open.remove(indexKey(key.getKey(), key.getValue()));
        }
      }
    }
    boolean complete = complete(transaction);
    if (complete || command.keepEvicted()) {
      results.add(
          new Result<>(
              transaction.events, transaction.newest, transaction.oldest, complete, false));
    }
  }

  /** Whether an event at {@code time} (older than the transaction's events) starts a new one. */
  private boolean ends(Transaction<?> transaction, long time) {
    return transaction.events.size() >= command.maxEvents()
        || (command.maxSpanMicros() >= 0 && transaction.newest - time > command.maxSpanMicros())
        || (command.maxPauseMicros() >= 0 && transaction.oldest - time > command.maxPauseMicros());
  }

  /**
   * The input is over: every open transaction closed, the results newest first (by a transaction's
   * oldest event, an orphan's time; in the order they closed where equal). Nothing is held after.
   */
  List<Result<E>> finish() {
    new ArrayList<>(opened).forEach(this::close);
    open.clear();
    List<Result<E>> answer = new ArrayList<>(results);
    results.clear();
    // transactions before orphans where equal, as they were kept apart before
    answer.sort(
        Comparator.comparingLong((Result<E> r) -> r.oldest())
            .reversed()
            .thenComparing(r -> r.orphan()));
    return answer;
  }

  /**
   * The fields of a transaction's result, in the order the class comment gives; an orphan's are its
   * own, in its order, and {@code _txn_orphan=1}.
   */
  static <E> Map<String, Object> combined(
      TransactionCommand command, Result<E> result, Fields<E> fields) {
    if (result.orphan()) {
      E event = result.events().get(0);
      Map<String, Object> values = new LinkedHashMap<>();
      for (String field : fields.names(event)) {
        List<Object> held = fields.values(event, field);
        if (!held.isEmpty()) {
          values.put(field, held.size() == 1 ? held.get(0) : held);
        }
      }
      values.put(ORPHAN, 1L);
      return values;
    }
    List<E> events = result.events();
    Map<String, Collection<Object>> collected = new TreeMap<>(); // in name order
    StringBuilder raw = new StringBuilder();
    for (int i = events.size() - 1; i >= 0; i--) { // oldest first
      E event = events.get(i);
      for (String field : fields.names(event)) {
        if (field.equals(TIME)) {
          continue;
        }
        List<Object> values = fields.values(event, field);
        if (field.equals(RAW)) {
          if (!values.isEmpty()) {
            raw.append(raw.isEmpty() ? "" : "\n").append(Values.toText(values.get(0)));
          }
          continue;
        }
        collected
            .computeIfAbsent(
                field, f -> command.listsValues(f) ? new ArrayList<>() : new LinkedHashSet<>())
            .addAll(values);
      }
    }
    Map<String, Object> values = new LinkedHashMap<>();
    values.put(TIME, result.oldest());
    if (!raw.isEmpty()) {
      values.put(RAW, raw.toString());
    }
    collected.forEach(
        (field, held) -> {
          List<Object> list = new ArrayList<>(held);
          if (!command.listsValues(field)) {
            // a set of values distinct as text, sorted as text (Splunk's mvlist=false): a number 0
            // and a text "0" are one value, whichever type a page gave a field (fillnull value=0
            // fills a number column with a number, a text column with text)
            Map<String, Object> byText = new TreeMap<>();
            for (Object value : held) {
              byText.putIfAbsent(Values.toText(value), value);
            }
            list = new ArrayList<>(byText.values());
          }
          if (!list.isEmpty()) {
            values.put(field, list.size() == 1 ? list.get(0) : List.copyOf(list));
          }
        });
    long micros = result.newest() - result.oldest();
    values.put("duration", micros % 1_000_000 == 0 ? (Object) (micros / 1_000_000) : micros / 1e6);
    values.put("eventcount", (long) events.size());
    if (command.keepEvicted()) {
      values.put("closed_txn", result.complete() ? 1L : 0L);
    }
    return values;
  }
}
