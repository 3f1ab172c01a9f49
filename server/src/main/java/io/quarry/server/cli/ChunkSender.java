package io.quarry.server.cli;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends {@code quarry ingest}'s chunks, a bounded number of requests in flight on their own
 * threads: of each chunk only the parts not acknowledged by an earlier run ({@link
 * IngestCheckpoints}), each part recorded when the server acknowledged it, progress advanced, and
 * the chunk's {@link Body} released once no send reads it. The first failed request fails the next
 * {@link #send} or {@link #finish}.
 */
final class ChunkSender implements AutoCloseable {
  private final IngestCheckpoints checkpoints; // null: --no-resume
  private final IngestProgress progress;
  private final ExecutorService senders;
  private final Semaphore inFlight;
  private final List<Future<?>> sent = new ArrayList<>(); // the reading thread's only

  ChunkSender(int lanes, IngestCheckpoints checkpoints, IngestProgress progress) {
    this.checkpoints = checkpoints;
    this.progress = progress;
    this.senders = Executors.newFixedThreadPool(lanes);
    this.inFlight = new Semaphore(lanes);
  }

  /** What a chunk's bytes are: where parts of it are sent from. */
  interface Body {
    /** Sends bytes {@code [from, to)} of the file (inside the chunk); on a sender thread. */
    void send(long from, long to) throws Exception;

    /** The lines in {@code [from, to)}, or -1 when they are not counted. */
    long lines(long from, long to);

    /** Called once, when no send reads the body any more. */
    void release() throws Exception;
  }

  /**
   * Sends the parts of the chunk {@code [start, end)} of the file known by {@code key} (null: not
   * checkpointed) that were not acknowledged before; {@code consumed} bytes of the file on disk
   * stand for it (for the progress bar; parts get their share). Waits while every lane is busy.
   */
  void send(String key, long start, long end, long consumed, Body body) throws Exception {
    List<long[]> parts =
        key == null ? List.of(new long[] {start, end}) : checkpoints.missing(key, start, end);
    long length = Math.max(1, end - start);
    long missing = 0;
    for (long[] part : parts) {
      missing += part[1] - part[0];
    }
    progress.skip(consumed - consumed * missing / length);
    // one hold per part in flight and one of this thread's, so the body outlives every send
    AtomicInteger holds = new AtomicInteger(parts.size() + 1);
    int submitted = 0;
    try {
      for (long[] part : parts) {
        long partConsumed = consumed * (part[1] - part[0]) / length;
        inFlight.acquire();
        sent.add(
            senders.submit(
                () -> {
                  try {
                    body.send(part[0], part[1]);
                    if (key != null) {
                      checkpoints.markDone(key, part[0], part[1]);
                    }
                    progress.advance(partConsumed, body.lines(part[0], part[1]));
                  } finally {
                    inFlight.release();
                    if (holds.decrementAndGet() == 0) {
                      body.release();
                    }
                  }
                  return null;
                }));
        submitted++;
      }
    } finally {
      // this thread's hold, and those of parts never submitted (an interrupt)
      if (holds.addAndGet(-(parts.size() - submitted + 1)) == 0) {
        body.release();
      }
    }
    failFast();
  }

  /** Waits for every request sent; rethrows the first that failed. */
  void finish() throws Exception {
    try {
      for (Future<?> future : sent) {
        future.get();
      }
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
    sent.clear();
  }

  /** Rethrows the first failed request without waiting for the rest; forgets finished ones. */
  private void failFast() throws Exception {
    for (Iterator<Future<?>> it = sent.iterator(); it.hasNext(); ) {
      Future<?> future = it.next();
      if (future.isDone()) {
        try {
          future.get();
        } catch (ExecutionException e) {
          throw e.getCause() instanceof Exception cause ? cause : e;
        }
        it.remove();
      }
    }
  }

  @Override
  public void close() {
    senders.shutdownNow();
  }
}
