package io.quarry.server.audit;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.config.QuarryConfig;
import io.quarry.server.ingest.WriterQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The audit trail written into the {@code _audit} index: {@link #record} queues an event (never
 * blocking the login or search it describes), a daemon thread writes what is queued in batches as
 * soon as it arrives (and sleeps while nothing is), durably (the same write as an acknowledged HEC
 * event). When the queue is full events are dropped and counted; the next batch carries an event
 * saying how many ({@code action=audit, info=dropped}) and the server log names the count, so a gap
 * in the trail is never silent.
 */
public final class AuditLog implements AuditTrail, AutoCloseable {
  /**
   * The index of the audit trail: internal (left out of {@code index=*}), admin-only by default.
   */
  public static final String INDEX = QuarryConfig.AUDIT_INDEX;

  private static final Logger LOG = Logger.getLogger(AuditLog.class.getName());
  private static final int CAPACITY = 10_000;
  private static final int BATCH = 1_000;
  private static final long MIN_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  // queued by close() to wake the writer; never written
  private static final AuditEvent WAKE = AuditEvent.of(Instant.EPOCH, "-", "audit", "stop");

  private final EventStore store;
  private final String host;
  private final WriterQueue<AuditEvent> queue = new WriterQueue<>(CAPACITY, WAKE);
  private final Thread writer;
  private final FailedLoginBudget failedLogins =
      new FailedLoginBudget(this::record, System::nanoTime);
  private final Duration closeWait; // how long close waits for the writer

  private AuditLog(EventStore store, String host, Duration closeWait) {
    this.store = requireNonNull(store, "store is null");
    this.host = requireNonNull(host, "host is null");
    this.closeWait = requireNonNull(closeWait, "closeWait is null");
    writer = new Thread(this::drain, "quarry-audit-log");
    writer.setDaemon(true);
  }

  /** Starts writing audit events into {@link #INDEX} of {@code store}. */
  public static AuditLog start(EventStore store, String host) {
    return start(store, host, Duration.ofSeconds(5));
  }

  /** As {@link #start(EventStore, String)}, {@link #close} waiting {@code closeWait} (tests). */
  static AuditLog start(EventStore store, String host, Duration closeWait) {
    AuditLog log = new AuditLog(store, host, closeWait);
    log.writer.start();
    return log;
  }

  /** The writer thread (tests: to wait for it). */
  Thread writer() {
    return writer;
  }

  @Override
  public void record(AuditEvent event) {
    requireNonNull(event, "event is null");
    if (queue.offer(event)) { // queued, or counted as dropped: reported with a batch or by close
      return;
    }
    // closed: no batch comes after, so the server log is where the gap shows
    LOG.warning(
        "1 audit event recorded after the audit log closed was not written: user="
            + event.user()
            + " action="
            + event.action()
            + " info="
            + event.info());
  }

  /** Within {@link FailedLoginBudget}: a stream of failed logins cannot crowd out other events. */
  @Override
  public void recordFailedLogin(AuditEvent event, String address) {
    failedLogins.record(event, address);
  }

  /**
   * The writer's loop: sleeps until an event is queued or the failed-login budget has a count to
   * record ({@link FailedLoginBudget#nanosUntilFlush}), so an idle server's writer never wakes
   * (until session 46 it looked every second).
   */
  private void drain() {
    List<AuditEvent> batch = new ArrayList<>();
    while (queue.hasWork()) {
      try {
        failedLogins.flush();
        long wait = failedLogins.nanosUntilFlush();
        AuditEvent first =
            wait == Long.MAX_VALUE ? queue.take() : queue.poll(Math.max(wait, MIN_WAIT_NANOS));
        if (first == null) {
          continue;
        }
        queue.batch(first, batch, BATCH);
        if (!batch.isEmpty()) {
          write(batch);
        }
      } catch (InterruptedException e) {
        queue.stop();
      } finally {
        queue.written();
        batch.clear();
      }
    }
    if (queue.end()) { // close stopped waiting for this writer: what it lost since, only it can say
      reportLost("after close stopped waiting for the writer");
    }
  }

  private void write(List<AuditEvent> batch) {
    List<Event> events = new ArrayList<>(batch.size() + 1);
    long lost = queue.takeDropped();
    if (lost > 0) {
      events.add(
          AuditEvent.of(Instant.now(), "-", "audit", "dropped").with("count", lost).toEvent(host));
    }
    for (AuditEvent event : batch) {
      events.add(event.toEvent(host));
    }
    try {
      store.write(INDEX, events);
    } catch (Exception e) {
      LOG.log(Level.WARNING, "writing " + events.size() + " audit events failed", e);
      // the batch and the count its dropped event carried: reported with the next batch written
      queue.addDropped(batch.size() + lost);
      return;
    }
    if (lost > 0) {
      LOG.warning(lost + " audit events were dropped: the audit queue was full or failed to write");
    }
  }

  /**
   * Stops taking events and writes what is queued. Every event recorded before is written or
   * counted as dropped, and what no batch reported (the queue was full, a write failed) the server
   * log names; an event recorded after is logged as not written ({@link #record}). A writer not
   * done after the wait (5 s) is named with the events it still holds, and names what it fails to
   * write (the store may close under it) when it ends.
   */
  @Override
  public void close() {
    long unfinished = queue.close(writer, closeWait);
    if (unfinished >= 0) {
      LOG.warning(
          "the audit log writer had not finished after "
              + closeWait.toMillis()
              + " ms as it closed: up to "
              + unfinished
              + " audit events being written or queued may not be written; it logs how many are"
              + " not when it ends");
    } else {
      reportLost("");
    }
  }

  /** Names in the server log what no batch reported: dropped, failed, or left in the queue. */
  private void reportLost(String when) {
    long lost = queue.lost();
    if (lost > 0) {
      LOG.warning(
          lost
              + " audit events were not written as the audit log closed"
              + (when.isEmpty() ? "" : " (" + when + ")")
              + ": the queue was full or a write failed");
    }
  }
}
