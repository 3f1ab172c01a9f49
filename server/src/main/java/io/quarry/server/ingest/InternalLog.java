package io.quarry.server.ingest;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.config.QuarryConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Quarry's own log, searchable as {@code index=_internal} (sourcetype {@code quarry:log}), as
 * Splunk keeps its own logs in {@code _internal}. A {@code java.util.logging} handler on the {@code
 * io.quarry} loggers queues records; a daemon thread writes them in batches as they come (and
 * sleeps while none do). Logging never blocks or fails the code that logs: when the queue is full
 * records are dropped, and the next batch carries an event saying how many.
 */
public final class InternalLog extends Handler implements AutoCloseable {
  /** The index Quarry logs into; internal indexes are left out of {@code index=*}. */
  public static final String INDEX = QuarryConfig.INTERNAL_INDEX;

  private static final String LOGGER = "io.quarry";
  private static final Logger LOG = Logger.getLogger(InternalLog.class.getName());
  private static final int CAPACITY = 10_000;
  // queued by close() to wake the writer; never written
  private static final LogRecord WAKE = new LogRecord(Level.OFF, "wake");

  private final EventStore store;
  private final String host;
  private final WriterQueue<LogRecord> queue = new WriterQueue<>(CAPACITY, WAKE);
  private final Thread writer;
  private final Duration closeWait; // how long close waits for the writer

  private InternalLog(EventStore store, String host, Duration closeWait) {
    this.store = requireNonNull(store, "store is null");
    this.host = requireNonNull(host, "host is null");
    this.closeWait = requireNonNull(closeWait, "closeWait is null");
    setLevel(Level.INFO);
    writer = new Thread(this::drain, "quarry-internal-log");
    writer.setDaemon(true);
  }

  /** Starts logging the {@code io.quarry} loggers into {@link #INDEX}. */
  public static InternalLog start(EventStore store, String host) {
    return start(store, host, Duration.ofSeconds(5));
  }

  /** As {@link #start(EventStore, String)}, {@link #close} waiting {@code closeWait} (tests). */
  static InternalLog start(EventStore store, String host, Duration closeWait) {
    InternalLog log = new InternalLog(store, host, closeWait);
    log.writer.start();
    Logger.getLogger(LOGGER).addHandler(log);
    return log;
  }

  @Override
  public void publish(LogRecord record) {
    if (!isLoggable(record)) {
      return;
    }
    if (queue.offer(record)) { // queued, or counted as dropped: reported with a batch or by close
      return;
    }
    // closed (the handler removed, a thread that logged as it was removed): the record still
    // reaches the server's other handlers; that it is not in the index is said there too. The
    // warning is an io.quarry record itself: should it come back here (the handler still attached)
    // it is not warned about again, which would recurse until the stack overflowed
    if (WARNING.get()) {
      return;
    }
    WARNING.set(true);
    try {
      LOG.warning(
          "1 log record published after the internal log closed is not in "
              + INDEX
              + ": "
              + record.getMessage());
    } finally {
      WARNING.set(false);
    }
  }

  /** Whether this thread is in {@link #publish}'s warning about a record after close. */
  private static final ThreadLocal<Boolean> WARNING = ThreadLocal.withInitial(() -> false);

  /** The writer thread (tests: to interrupt it, to wait for it). */
  Thread writer() {
    return writer;
  }

  private void drain() {
    List<LogRecord> records = new ArrayList<>();
    while (queue.hasWork()) {
      try {
        // sleeps until a record comes (until session 46 it looked every second, one of an idle
        // server's wake-ups)
        queue.batch(queue.take(), records, 1_000);
        if (!records.isEmpty()) {
          write(records);
        }
      } catch (InterruptedException e) {
        stopAfterInterrupt();
      } finally {
        queue.written();
        records.clear();
      }
    }
    if (queue.end()) { // close stopped waiting for this writer: what it lost since, only it can say
      reportLost("after close stopped waiting for the writer");
    }
  }

  /**
   * The writer was interrupted: it writes what is queued and ends. The handler is detached first,
   * so the io.quarry loggers stop reaching it (a record that still does is named by {@link
   * #publish}), and the server's other handlers are told the index gets no more.
   */
  private void stopAfterInterrupt() {
    Logger.getLogger(LOGGER).removeHandler(this);
    if (queue.stop()) {
      LOG.warning(
          "the internal log writer was interrupted: log records from now on are not in "
              + INDEX
              + " (those already queued are written)");
    }
  }

  private void write(List<LogRecord> records) {
    List<Event> events = new ArrayList<>(records.size() + 1);
    long lost = queue.takeDropped();
    if (lost > 0) {
      long now = Instant.now().toEpochMilli() * 1000;
      events.add(
          event(
              now,
              "WARNING",
              InternalLog.class.getName(),
              lost + " log records dropped: the internal log queue was full"));
    }
    for (LogRecord record : records) {
      String text = record.getMessage();
      if (record.getParameters() != null && text != null && text.contains("{0")) {
        text = java.text.MessageFormat.format(text, record.getParameters());
      }
      if (record.getThrown() != null) {
        StringWriter trace = new StringWriter();
        record.getThrown().printStackTrace(new PrintWriter(trace));
        text = text + "\n" + trace.toString().stripTrailing();
      }
      Instant instant = record.getInstant();
      events.add(
          event(
              instant.getEpochSecond() * 1_000_000L + instant.getNano() / 1000,
              record.getLevel().getName(),
              record.getLoggerName(),
              text));
    }
    try {
      store.write(INDEX, events);
    } catch (Exception e) {
      // nowhere to log to: count them (the records, and those the batch's dropped event stood
      // for), the next batch reports it
      queue.addDropped(records.size() + lost);
    }
  }

  private Event event(long micros, String level, String logger, String message) {
    String raw =
        Instant.ofEpochSecond(micros / 1_000_000, (micros % 1_000_000) * 1000)
            + " "
            + level
            + " "
            + logger
            + " - "
            + message;
    return new Event(micros, raw, host, "quarry", "quarry:log", Map.of());
  }

  @Override
  public void flush() {}

  /**
   * Stops taking records and writes what is queued. Every record published before is written or
   * counted as dropped, and what no batch reported (the queue was full, a write failed) a warning
   * to the server's other handlers names; a record published after is named there as not in the
   * index ({@link #publish}). A writer not done after the wait (5 s) is named with the records it
   * still holds, and names what it fails to write (the store may close under it) when it ends.
   */
  @Override
  public void close() {
    Logger.getLogger(LOGGER).removeHandler(this);
    long unfinished = queue.close(writer, closeWait);
    if (unfinished >= 0) {
      LOG.warning(
          "the internal log writer had not finished after "
              + closeWait.toMillis()
              + " ms as it closed: up to "
              + unfinished
              + " log records being written or queued may not be in "
              + INDEX
              + "; it says how many are not when it ends");
    } else {
      reportLost("");
    }
  }

  /** Names to the other handlers what no batch reported: dropped, failed, or left queued. */
  private void reportLost(String when) {
    long lost = queue.lost();
    if (lost > 0) {
      LOG.warning(
          lost
              + " log records are not in "
              + INDEX
              + " as the internal log closed"
              + (when.isEmpty() ? "" : " (" + when + ")")
              + ": the queue was full or a write failed");
    }
  }
}
