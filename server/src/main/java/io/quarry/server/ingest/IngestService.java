package io.quarry.server.ingest;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.codecs.store.LoggedBatch;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writes events to their indexes durably and counts them. */
public final class IngestService {
  private final EventStore store;
  private final ServerMetrics metrics;
  private final Sourcetypes sourcetypes;
  private final IngestGate gate;

  public IngestService(
      EventStore store, ServerMetrics metrics, Sourcetypes sourcetypes, IngestGate gate) {
    this.store = requireNonNull(store, "store is null");
    this.metrics = requireNonNull(metrics, "metrics is null");
    this.sourcetypes = requireNonNull(sourcetypes, "sourcetypes is null");
    this.gate = requireNonNull(gate, "gate is null");
  }

  /**
   * The event store written to: for this package's tests (which hold its compactions back through
   * the codecs test-jar's {@code CompactionHolds}); the server reaches it where it opens it.
   */
  EventStore store() {
    return store;
  }

  /** Admission to the ingest pipelines (see {@link IngestGate}). */
  public IngestGate gate() {
    return gate;
  }

  public Sourcetypes sourcetypes() {
    return sourcetypes;
  }

  /**
   * Breaks a raw stream into events by its sourcetype's rules (see {@link EventBreaker}) and counts
   * the events that were truncated or had no timestamp.
   */
  public EventBreaker.Result breakRaw(
      byte[] body, String sourcetype, String host, String source, Instant now) {
    EventBreaker.Result result =
        new EventBreaker(sourcetypes.forName(sourcetype), host, source, now).breakEvents(body);
    metrics.eventsBroken(sourcetype, result.truncated(), result.timestampMissing());
    return result;
  }

  /**
   * The indexes {@code asked} accepts that would refuse a batch now because their compaction lags
   * behind ingest ({@link io.quarry.codecs.store.IndexBusyException}), each with the refusal's
   * message, in name order. Stores nothing. What {@code /services/collector/health} reports.
   */
  public Map<String, String> busyIndexes(java.util.function.Predicate<String> asked) {
    Map<String, String> busy = new java.util.TreeMap<>();
    for (String name : store.indexNames()) {
      if (!asked.test(name)) {
        continue;
      }
      try {
        store.index(name).requireAccepting();
      } catch (io.quarry.codecs.store.IndexBusyException e) {
        busy.put(name, e.getMessage());
      }
    }
    return busy;
  }

  public boolean hasIndex(String index) {
    return store.hasIndex(index);
  }

  /**
   * @return why {@code event} cannot be stored in {@code index} (a typed field that does not parse,
   *     a value too long), or null when it can
   */
  public String problem(String index, Event event) {
    return store.index(index).problem(event);
  }

  /**
   * Stores the first {@code count} events a breaker made in one index; returns when they are
   * durable and searchable. An event's range of the body ({@link Event#asciiArray}) is written as
   * it is; no holder keeps it past the return.
   */
  public void write(String index, EventBreaker.Result broken, int count) throws IOException {
    write(index, broken, count, () -> {});
  }

  /**
   * {@link #write(String, EventBreaker.Result, int)}, running {@code indexed} once the events are
   * in the log and indexed, before the wait for the log's fsync (where an ingest pipeline is handed
   * on: {@link IngestGate.LeavingWork}).
   */
  public void write(String index, EventBreaker.Result broken, int count, Runnable indexed)
      throws IOException {
    List<Event> events = broken.events().subList(0, count);
    long bytes = store.write(index, events, indexed);
    metrics.eventsIngested(index, count, bytes);
  }

  /**
   * Returns when every event is durable and searchable. An event's ASCII bytes, when it holds them
   * ({@link Event#asciiArray}), are written as they are. The events go to their indexes in one
   * batch each (one write-ahead log record), in the order the indexes first appear. Before the
   * first batch is written every index is asked whether it would refuse its batch: too large for
   * its log record ({@code storage.maxBatchBytes}, {@link
   * io.quarry.codecs.wal.WriteAheadLog.RecordTooLarge}) or busy ({@link
   * io.quarry.codecs.store.IndexBusyException}), so such a refusal stores nothing of the request; a
   * failure that only the write finds, after some indexes' batches were stored, is a {@link
   * PartlyStoredException} naming them.
   */
  public void write(List<IndexedEvent> events) throws IOException {
    write(events, () -> {});
  }

  /**
   * {@link #write(List)}, running {@code indexed} once every index's batch is in its log and
   * indexed, before the waits for the logs' fsyncs (where an ingest pipeline is handed on: {@link
   * IngestGate.LeavingWork}). Every index's batch is appended first ({@link EventStore#append}),
   * then each waits for its own log's fsync: the request returns once all are durable. When an
   * append fails, the batches appended before it are still waited for; the indexes whose batches
   * turned out durable are the ones a {@link PartlyStoredException} names (a failed fsync of one
   * index, its log failed stop, does not undo another index's durable batch).
   */
  public void write(List<IndexedEvent> events, Runnable indexed) throws IOException {
    Map<String, List<Event>> byIndex = new LinkedHashMap<>();
    for (IndexedEvent event : events) {
      byIndex.computeIfAbsent(event.index(), i -> new ArrayList<>()).add(event.event());
    }
    if (byIndex.size() > 1) {
      // a single index's batch is checked by its append before it writes; for several, a later
      // index must not refuse as busy or too large after an earlier one is logged (the size
      // counted without encoding the batch: EncodedBatch.lengthOf)
      for (Map.Entry<String, List<Event>> batch : byIndex.entrySet()) {
        store.requireAccepting(batch.getKey(), batch.getValue());
      }
    }
    List<Appended> appended = new ArrayList<>(byIndex.size());
    String failedIndex = null;
    IOException failure = null;
    try {
      for (Map.Entry<String, List<Event>> entry : byIndex.entrySet()) {
        try {
          LoggedBatch logged = store.append(entry.getKey(), entry.getValue());
          appended.add(new Appended(entry.getKey(), entry.getValue().size(), logged));
        } catch (IOException e) {
          failedIndex = entry.getKey();
          failure = e;
          break; // the indexes after it are not written, as the appended ones are waited for
        }
      }
      indexed.run(); // only fsync waits are left
    } catch (RuntimeException e) {
      // appended batches are acknowledged by nobody: wait for them all the same, so the request's
      // end leaves no batch of it undecided in flight
      for (Appended batch : appended) {
        try {
          batch.logged().awaitDurable();
        } catch (IOException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw e;
    }
    List<String> stored = new ArrayList<>(appended.size());
    int storedEvents = 0;
    String syncFailedIndex = null;
    IOException syncFailure = null;
    for (Appended batch : appended) {
      long bytes;
      try {
        bytes = batch.logged().awaitDurable();
      } catch (IOException e) {
        if (syncFailure == null) {
          syncFailedIndex = batch.index();
          syncFailure = e;
        }
        continue;
      }
      metrics.eventsIngested(batch.index(), batch.events(), bytes);
      stored.add(batch.index());
      storedEvents += batch.events();
    }
    if (syncFailure != null) {
      // the first index in the request's order that is not stored: a failed fsync comes before an
      // append that failed after it
      failedIndex = syncFailedIndex;
      failure = syncFailure;
    }
    if (failure == null) {
      return;
    }
    if (stored.isEmpty()) {
      throw failure; // nothing of the request stored: the failure as it is
    }
    throw new PartlyStoredException(stored, storedEvents, failedIndex, failure);
  }

  /** One index's batch of a request, appended to its log, its fsync not yet waited for. */
  private record Appended(String index, int events, LoggedBatch logged) {}
}
