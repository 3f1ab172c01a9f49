package io.quarry.server.jobs;

import static java.util.Objects.requireNonNull;

import java.time.Clock;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * When the {@link JobManager} looks at its jobs (removes the expired, starts the waiting whose user
 * has a slot): at the next time something is due, not on a fixed tick. A look ({@code look}, run on
 * the reaper's thread {@code quarry-job-reaper}) says when the next is due — the earliest expiry of
 * a finished job, a second on while jobs wait for a slot, at most {@link #MAX_SLEEP_MILLIS} on
 * while any job is kept — or {@link Long#MAX_VALUE} when nothing is kept; the manager asks for a
 * look ({@link #lookBy}) when a job ends or its TTL is set. So a server without jobs never wakes
 * the reaper: until session 46 it woke every second to find nothing, one of the wake-ups that kept
 * an idle server's CPU above the end-to-end harness's idle bound on a slow VM.
 */
final class JobReaper implements AutoCloseable {
  private static final Logger LOG = Logger.getLogger(JobReaper.class.getName());

  /**
   * The longest the reaper sleeps while a job is kept: a safety net for a job's end it was not told
   * of and for a clock that was set back.
   */
  static final long MAX_SLEEP_MILLIS = 60_000;

  private final Clock clock;
  private final LongSupplier look;
  private final ScheduledThreadPoolExecutor timer;
  private ScheduledFuture<?> next; // the look asked for; guarded by this
  private long nextAtMillis = Long.MAX_VALUE; // when it runs; guarded by this
  private long generation; // of the look asked for last; guarded by this

  /**
   * A reaper running {@code look} when asked, which returns when (in {@code clock}'s milliseconds)
   * it wants the next look, {@link Long#MAX_VALUE} for none.
   */
  JobReaper(Clock clock, LongSupplier look) {
    this.clock = requireNonNull(clock, "clock is null");
    this.look = requireNonNull(look, "look is null");
    this.timer =
        new ScheduledThreadPoolExecutor(
            1,
            runnable -> {
              Thread thread = new Thread(runnable, "quarry-job-reaper");
              thread.setDaemon(true);
              return thread;
            });
    timer.setRemoveOnCancelPolicy(true); // a look moved earlier leaves nothing queued behind
  }

  /**
   * Asks for a look at {@code atMillis} at the latest (at once when it passed; {@link
   * Long#MAX_VALUE}: none); a look asked for earlier stays.
   */
  synchronized void lookBy(long atMillis) {
    if (atMillis == Long.MAX_VALUE || next != null && nextAtMillis <= atMillis) {
      return;
    }
    if (next != null) {
      next.cancel(false);
    }
    long now = clock.millis();
    long delay = Math.clamp(atMillis - now, 0, MAX_SLEEP_MILLIS);
    long asked = ++generation;
    try {
      next = timer.schedule(() -> run(asked), delay, TimeUnit.MILLISECONDS);
      nextAtMillis = now + delay; // when it runs: a far TTL's look is the longest sleep away
    } catch (RejectedExecutionException closed) {
      next = null;
      nextAtMillis = Long.MAX_VALUE;
    }
  }

  /** Whether a look is asked for (for the tests: none while no job is kept). */
  synchronized boolean waiting() {
    return next != null;
  }

  private void run(long asked) {
    synchronized (this) {
      if (asked == generation) { // not replaced by an earlier one meanwhile
        next = null;
        nextAtMillis = Long.MAX_VALUE;
      }
    }
    long due = clock.millis() + 1_000; // kept when the look fails, even with an Error
    try {
      due = look.getAsLong();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "looking at the search jobs failed; looking again in a second", e);
    } finally {
      lookBy(due);
    }
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
