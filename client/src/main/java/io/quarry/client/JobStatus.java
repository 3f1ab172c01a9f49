package io.quarry.client;

import java.time.Duration;
import java.util.List;

/**
 * Where a search job is.
 *
 * @param id the job's id
 * @param state {@code QUEUED}, {@code RUNNING}, {@code DONE}, {@code FAILED} or {@code CANCELLED}
 * @param finalized whether it was asked to stop reading events early
 * @param eventsRead events read from storage so far
 * @param rows result rows so far
 * @param runDuration time spent running
 * @param messages warnings, and the error of a failed job
 */
public record JobStatus(
    String id,
    String state,
    boolean finalized,
    long eventsRead,
    long rows,
    Duration runDuration,
    List<String> messages) {
  public JobStatus {
    messages = List.copyOf(messages);
  }

  /** Whether the job has finished (done, failed or cancelled). */
  public boolean done() {
    return !state.equals("QUEUED") && !state.equals("RUNNING");
  }
}
