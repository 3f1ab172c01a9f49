package io.quarry.server.audit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * How many failed (or locked) login attempts from one client address the audit trail records one by
 * one: {@value #PER_MINUTE} a minute. Past that, within the same minute, attempts are counted: the
 * first one past the budget is recorded as {@code action="login attempt" info=suppressed}, and once
 * the minute is over one event says how many were left out ({@code count}). So a stream of failed
 * logins — guessing across many user names is cheap for unknown names — cannot fill the audit queue
 * and push other events (searches, changes) out of it. At most {@value #MAX_ADDRESSES} addresses
 * are told apart; more share one budget under {@code *}. Thread-safe.
 */
public final class FailedLoginBudget {
  /** Failed attempts from one address recorded one by one in a minute. */
  public static final int PER_MINUTE = 60;

  static final int MAX_ADDRESSES = 10_000;
  private static final long WINDOW_NANOS = Duration.ofMinutes(1).toNanos();

  private final AuditTrail trail;
  private final LongSupplier nanoTime;
  private final Map<String, Window> windows = new HashMap<>(); // guarded by this
  private long lastFlush;

  private static final class Window {
    final long start;
    int recorded;
    long suppressed;

    Window(long start) {
      this.start = start;
    }
  }

  public FailedLoginBudget(AuditTrail trail, LongSupplier nanoTime) {
    this.trail = requireNonNull(trail, "trail is null");
    this.nanoTime = requireNonNull(nanoTime, "nanoTime is null");
    this.lastFlush = nanoTime.getAsLong();
  }

  /** Records a failed or locked attempt from {@code address} (null: unknown), within the budget. */
  public void record(AuditEvent event, String address) {
    requireNonNull(event, "event is null");
    long now = nanoTime.getAsLong();
    AuditEvent recorded;
    synchronized (this) {
      flush(now);
      String key = address == null ? "-" : address;
      if (!windows.containsKey(key) && windows.size() >= MAX_ADDRESSES) {
        key = "*";
      }
      Window window = windows.get(key);
      if (window == null || now - window.start >= WINDOW_NANOS) {
        if (window != null && window.suppressed > 0) {
          trail.record(summary(key, window.suppressed));
        }
        window = new Window(now);
        windows.put(key, window);
      }
      if (window.recorded < PER_MINUTE) {
        window.recorded++;
        recorded = event;
      } else if (++window.suppressed == 1) {
        recorded =
            AuditEvent.of(Instant.now(), "-", "login attempt", "suppressed")
                .with("clientip", key)
                .with(
                    "reason",
                    "more than "
                        + PER_MINUTE
                        + " failed logins in a minute from this address: the rest of the minute's"
                        + " are counted, not recorded");
      } else {
        return;
      }
    }
    trail.record(recorded);
  }

  /**
   * Records the counts of minutes that ended with attempts left out (called by the audit writer
   * when {@link #nanosUntilFlush} says, and on each record).
   */
  public void flush() {
    long now = nanoTime.getAsLong();
    synchronized (this) {
      flush(now);
    }
  }

  /**
   * Nanoseconds until a {@link #flush} has a count to record: the end of the earliest minute with
   * attempts left out (no sooner than a second after the last flush, which is all a flush looks at
   * more often), 0 when it is due; {@link Long#MAX_VALUE} when no minute left any out. A minute
   * that leaves out its first attempt records an event, which wakes the audit writer to ask again.
   */
  public long nanosUntilFlush() {
    long now = nanoTime.getAsLong();
    synchronized (this) {
      long due = Long.MAX_VALUE;
      for (Window window : windows.values()) {
        if (window.suppressed > 0) {
          due = Math.min(due, Math.max(window.start + WINDOW_NANOS, lastFlush + 1_000_000_000L));
        }
      }
      return due == Long.MAX_VALUE ? due : Math.max(0, due - now);
    }
  }

  private void flush(long now) { // guarded by this
    if (now - lastFlush < 1_000_000_000L) {
      return;
    }
    lastFlush = now;
    Iterator<Map.Entry<String, Window>> entries = windows.entrySet().iterator();
    while (entries.hasNext()) {
      Map.Entry<String, Window> entry = entries.next();
      Window window = entry.getValue();
      if (now - window.start >= WINDOW_NANOS) {
        if (window.suppressed > 0) {
          trail.record(summary(entry.getKey(), window.suppressed));
        }
        entries.remove();
      }
    }
  }

  private static AuditEvent summary(String address, long count) {
    return AuditEvent.of(Instant.now(), "-", "login attempt", "suppressed")
        .with("clientip", address)
        .with("count", count)
        .with(
            "reason",
            "failed logins past " + PER_MINUTE + " a minute from this address, not recorded");
  }
}
