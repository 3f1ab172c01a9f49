package io.quarry.server.search;

import static java.util.Objects.requireNonNull;

import io.quarry.codecs.store.Event;
import io.quarry.ql.plan.WritesEvents;
import io.quarry.server.http.ApiException;
import io.quarry.server.ingest.IndexedEvent;
import io.quarry.server.ingest.IngestGate;
import io.quarry.server.ingest.IngestService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Where one {@code collect} writes: the ingest path HEC's events take ({@link IngestService}),
 * admitted by its gate like any batch, each batch durable (write-ahead log first) before {@link
 * #write} returns. A busy ingest is waited for up to {@value #BUSY_WAIT_SECONDS} s (no longer than
 * the search is wanted: cancelling it ends the wait); an event the index cannot store fails the
 * search with 400 {@code INVALID_EVENT}, the events before it kept. A page holding an event the
 * target sourcetype would read wrong — a summary event (a result without {@code _raw}), or a kept
 * {@code _raw} whose own sourcetype is unknown or read with another kvMode — fails the search with
 * 400 {@code COLLECT_SOURCETYPE} before any of its events is written ({@link
 * CollectSourcetype#refuse}), the pages before it kept.
 */
final class CollectWriter implements WritesEvents.Writer {
  static final int BUSY_WAIT_SECONDS = 30;

  /** The writer of a search that must write nothing ({@code explain}): it drops the events. */
  static final WritesEvents.Writer NOTHING =
      new WritesEvents.Writer() {
        @Override
        public void write(List<WritesEvents.Written> events, Runnable checkCancelled) {}

        @Override
        public long written() {
          return 0;
        }
      };

  private final IngestService ingest;
  private final String index;
  private final String defaultHost;
  private final CollectSourcetype sourcetype;
  private final AtomicLong written = new AtomicLong();

  CollectWriter(
      IngestService ingest, String index, String defaultHost, CollectSourcetype sourcetype) {
    this.ingest = requireNonNull(ingest, "ingest is null");
    this.sourcetype = requireNonNull(sourcetype, "sourcetype is null");
    this.index = requireNonNull(index, "index is null");
    this.defaultHost = requireNonNull(defaultHost, "defaultHost is null");
  }

  @Override
  public void write(List<WritesEvents.Written> events, Runnable checkCancelled) {
    sourcetype.refuse(events); // before any of the page's events is written
    List<IndexedEvent> batch = new ArrayList<>(events.size());
    long bytes = 0;
    for (WritesEvents.Written written : events) {
      Event event =
          new Event(
              written.timeMicros(),
              written.raw(),
              written.host() == null ? defaultHost : written.host(),
              written.source(),
              written.sourcetype(),
              Map.of());
      batch.add(new IndexedEvent(index, event));
      bytes += written.raw().length();
    }
    long deadline = System.nanoTime() + BUSY_WAIT_SECONDS * 1_000_000_000L;
    while (true) {
      try {
        ingest.gate().run(bytes, leave -> store(batch, leave));
        return;
      } catch (IngestGate.Full full) {
        if (System.nanoTime() > deadline) {
          throw ApiException.of(
              503,
              "SERVER_BUSY",
              "collect into index '" + index + "': " + full.getMessage() + "; retry later",
              Map.of("index", index),
              Map.of("Retry-After", "1"));
        }
        checkCancelled.run(); // a cancelled or timed-out search stops waiting
        pause();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new UncheckedIOException(
            new IOException("collect into index '" + index + "' failed: " + e.getMessage(), e));
      }
    }
  }

  /**
   * Stores a page's events, handing the ingest pipeline on ({@code leave}) once they are indexed,
   * while they wait for the log's fsync; returns once they are durable.
   */
  private Void store(List<IndexedEvent> batch, Runnable leave) throws IOException {
    for (int i = 0; i < batch.size(); i++) {
      String problem = ingest.problem(index, batch.get(i).event());
      if (problem != null) {
        // the events before the bad one are kept: a search's results are no client's batch to
        // resend whole, so what it collected up to the bad event stays
        ingest.write(batch.subList(0, i), leave);
        written.addAndGet(i);
        throw ApiException.badRequest(
            "INVALID_EVENT",
            "collect: a result cannot be stored in index '" + index + "': " + problem);
      }
    }
    ingest.write(batch, leave);
    written.addAndGet(batch.size());
    return null;
  }

  private static void pause() {
    try {
      Thread.sleep(50);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.util.concurrent.CancellationException("search cancelled");
    }
  }

  @Override
  public long written() {
    return written.get();
  }
}
