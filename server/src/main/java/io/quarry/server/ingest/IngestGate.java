package io.quarry.server.ingest;

import io.quarry.codecs.store.IndexBusyException;
import java.util.concurrent.Semaphore;

/**
 * Admission to the ingest pipelines: at most {@code pipelines} batches are parsed and indexed at
 * once (each on its own thread, and Lucene gives each indexing thread its own in-memory segment),
 * and at most {@code maxQueuedBytes} of request bodies wait for one. A batch that would overflow
 * the queue is refused at once, so a shipper that sends faster than Quarry indexes gets "server
 * busy" and retries later instead of the server buffering without bound. One batch is always
 * admitted into an empty queue, however large. A batch an index refused because its compaction lags
 * behind ingest ({@link IndexBusyException}) is answered busy the same way. A pipeline is for the
 * CPU's work: a batch that is indexed and only waits for the write-ahead log's group fsync hands it
 * on ({@link LeavingWork}) — its answer still waits for the fsync — so the next batch is parsed
 * while the disk syncs instead of the cores idling (session 42: with {@code pipelines} = cores,
 * each fsync had left a core idle).
 */
public final class IngestGate {
  /** A batch was refused; the caller answers 503 with Retry-After. */
  public static final class Full extends Exception {
    Full(String message) {
      super(message, null, false, false);
    }
  }

  /** The work a batch does once admitted. */
  @FunctionalInterface
  public interface Work<T> {
    T run() throws Exception;
  }

  /**
   * Work that may hand its pipeline on before it ends: it calls {@code leave} when what is left
   * takes no CPU (the wait for the write-ahead log's group fsync), so a queued batch is parsed and
   * indexed meanwhile. Calling it more than once, or not at all, is fine.
   */
  @FunctionalInterface
  public interface LeavingWork<T> {
    T run(Runnable leave) throws Exception;
  }

  private final int pipelines;
  private final long maxQueuedBytes;
  private final Semaphore running;
  private final Object lock = new Object();
  private long queuedBytes; // guarded by lock
  private int queued; // guarded by lock
  // batches that handed their pipeline on and wait for the fsync: they still hold their bodies,
  // so they take their place in the queue's bytes until they end (guarded by lock)
  private long leftBytes;
  private int left;

  public IngestGate(int pipelines, long maxQueuedBytes) {
    if (pipelines < 1) {
      throw new IllegalArgumentException("ingest pipelines must be at least 1");
    }
    if (maxQueuedBytes < 1) {
      throw new IllegalArgumentException("ingest queue bytes must be positive");
    }
    this.pipelines = pipelines;
    this.maxQueuedBytes = maxQueuedBytes;
    this.running = new Semaphore(pipelines, true);
  }

  /**
   * Runs {@code work} on a pipeline, waiting in the queue for one when all are busy.
   *
   * @throws Full when the queue cannot take {@code bytes} more, or an index refused the batch
   *     ({@link IndexBusyException})
   */
  public <T> T run(long bytes, Work<T> work) throws Exception {
    return run(bytes, leave -> work.run());
  }

  /**
   * Runs {@code work} on a pipeline as {@link #run(long, Work)} does, the pipeline free for the
   * next batch from when the work calls its {@code leave} (else from when it ends).
   *
   * @throws Full when the queue cannot take {@code bytes} more, or an index refused the batch
   *     ({@link IndexBusyException})
   */
  public <T> T run(long bytes, LeavingWork<T> work) throws Exception {
    synchronized (lock) {
      if ((queued > 0 || left > 0) && queuedBytes + leftBytes + bytes > maxQueuedBytes) {
        throw new Full(
            "ingest queue full: "
                + queued
                + " batches ("
                + queuedBytes
                + " bytes) wait for "
                + pipelines
                + " busy pipelines"
                + (left == 0
                    ? ""
                    : ", " + left + " indexed ones (" + leftBytes + " bytes) for the log's fsync"));
      }
      queued++;
      queuedBytes += bytes;
    }
    try {
      running.acquire();
    } finally {
      synchronized (lock) {
        queued--;
        queuedBytes -= bytes;
      }
    }
    Leave leave = new Leave(bytes);
    try {
      return work.run(leave);
    } catch (IndexBusyException e) {
      // an index whose compaction lags refused the batch: busy too, and retried the same way
      throw new Full(e.getMessage());
    } finally {
      leave.end();
    }
  }

  /**
   * Gives an admitted batch's pipeline back, once however often it is called; a batch that leaves
   * before it ends counts in the queue's bytes until it ends (it still holds its body).
   */
  private final class Leave implements Runnable {
    private final long bytes;
    private boolean gone; // guarded by lock: left its pipeline
    private boolean ended; // guarded by lock

    Leave(long bytes) {
      this.bytes = bytes;
    }

    @Override
    public void run() {
      synchronized (lock) {
        if (gone || ended) {
          return;
        }
        gone = true;
        left++;
        leftBytes += bytes;
      }
      running.release();
    }

    /** The batch ended: its pipeline back if it had not left, else its place in the queue. */
    void end() {
      synchronized (lock) {
        if (ended) {
          return;
        }
        ended = true;
        if (gone) {
          left--;
          leftBytes -= bytes;
          return;
        }
      }
      running.release();
    }
  }

  /**
   * Whether new batches would likely be refused: every pipeline busy and the queue more than half
   * full (what {@code /services/collector/health} reports as code 18).
   */
  public boolean saturated() {
    synchronized (lock) {
      return running.availablePermits() == 0 && queuedBytes * 2 >= maxQueuedBytes;
    }
  }

  /** Pipelines busy now. */
  public int busyPipelines() {
    return pipelines - running.availablePermits();
  }

  /** Bytes of batches waiting for a pipeline. */
  public long queuedBytes() {
    synchronized (lock) {
      return queuedBytes;
    }
  }
}
