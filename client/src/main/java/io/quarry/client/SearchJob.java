package io.quarry.client;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * A handle on a search job on the server ({@code /api/v1/jobs/{id}}): poll its status, page its
 * typed results (also while it runs), finalize, cancel or delete it. Obtained from {@link
 * QuarryClient#submit}. Thread-safe; it holds no resources of its own.
 */
public final class SearchJob {
  private final JobEndpoints jobs;
  private final String id;

  SearchJob(JobEndpoints jobs, String id) {
    this.jobs = requireNonNull(jobs, "jobs is null");
    this.id = requireNonNull(id, "id is null");
  }

  public String id() {
    return id;
  }

  public JobStatus status() {
    return jobs.status(id);
  }

  /**
   * Polls until the job has finished or {@code timeout} passed.
   *
   * @return the last status seen
   */
  public JobStatus await(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long pause = 10;
    while (true) {
      JobStatus status = status();
      if (status.done() || System.nanoTime() - deadline > 0) {
        return status;
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new QuarryClientException("interrupted while waiting for job " + id, e);
      }
      pause = Math.min(500, pause * 2);
    }
  }

  /** The rows {@code [offset, offset + count)} so far (count at most 50,000). */
  public TypedResults results(long offset, long count) {
    return jobs.results(id, offset, count);
  }

  /** The job inspector: plan and per-stage costs, as JSON text. */
  public String inspect() {
    return jobs.get(id, "/inspect");
  }

  /** Stops reading events; the results cover what was read. */
  public JobStatus finalizeJob() {
    return jobs.action(id, "finalize");
  }

  /** Stops the job and drops its results. */
  public JobStatus cancel() {
    return jobs.action(id, "cancel");
  }

  /** Cancels the job if it runs and removes it from the server. */
  public void delete() {
    jobs.delete(id);
  }
}
