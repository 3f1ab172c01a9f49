package io.quarry.server.jobs;

import io.quarry.server.auth.AdmittedSearch;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The jobs that wait for a search slot of their user ({@code search.queueOverQuota}), oldest first.
 * Thread-safe: jobs are added by request threads and started from the job pool and the reaper.
 */
final class WaitingJobs {
  /** Starts an admitted job; false when the job pool is full (it then waits on). */
  @FunctionalInterface
  interface Starter {
    boolean start(SearchJob job, WaitingJob spec, AdmittedSearch admitted);
  }

  private final Map<SearchJob, WaitingJob> waiting = new LinkedHashMap<>(); // guarded by this

  synchronized void add(SearchJob job, WaitingJob spec) {
    waiting.put(job, spec);
  }

  /** Whether no job waits. */
  synchronized boolean isEmpty() {
    return waiting.isEmpty();
  }

  /** How many jobs of {@code user} wait. */
  synchronized int count(String user) {
    int count = 0;
    for (WaitingJob spec : waiting.values()) {
      if (spec.user().equals(user)) {
        count++;
      }
    }
    return count;
  }

  /** Takes the job out of the queue; its description, or null when it did not wait. */
  synchronized WaitingJob remove(SearchJob job) {
    return waiting.remove(job);
  }

  /**
   * Starts, oldest first, every waiting job whose user has a free slot now; a job cancelled while
   * it waited ends as cancelled. Stops at the first job the pool cannot take.
   */
  synchronized void startReady(Starter starter, long nowMillis) {
    Iterator<Map.Entry<SearchJob, WaitingJob>> entries = waiting.entrySet().iterator();
    while (entries.hasNext()) {
      Map.Entry<SearchJob, WaitingJob> entry = entries.next();
      SearchJob job = entry.getKey();
      WaitingJob spec = entry.getValue();
      if (job.cancelled()) {
        entries.remove();
        job.failed(null, nowMillis); // ends as CANCELLED
        spec.cancelled().run();
        continue;
      }
      AdmittedSearch admitted = spec.admit().get();
      if (admitted == null) {
        continue; // this user still runs their quota; others may go
      }
      if (!starter.start(job, spec, admitted)) {
        admitted.close();
        return; // the job pool is full: tried again when a job ends
      }
      entries.remove();
    }
  }

  /** Cancels every waiting job (the server stops). */
  synchronized void cancelAll() {
    waiting.keySet().forEach(job -> job.control().cancel());
    waiting.clear();
  }
}
