package io.quarry.codecs.store;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;

/** The tests' parallel scans of one index: every event of a time range, slice by slice. */
final class Scans {
  private Scans() {}

  /** Visits every event of {@code index} in {@code [from, to)}, one visitor per slice. */
  static ScanStats visitEach(
      EventStore store,
      String index,
      long from,
      long to,
      Supplier<EventVisitor> visitors,
      ExecutorService pool)
      throws IOException {
    return visitAll(store, List.of(index), new MatchAllDocsQuery(), from, to, visitors, pool);
  }

  /** Every slice's every event to its own visitor from {@code visitors} (the push form). */
  static ScanStats visitAll(
      EventStore store,
      List<String> indexes,
      Query query,
      long from,
      long to,
      Supplier<EventVisitor> visitors,
      ExecutorService pool)
      throws IOException {
    return store.pullParallel(
        indexes, query, from, to, () -> ScanSlice.visiting(visitors.get()), pool);
  }

  /** How a slice pulls its events: the whole slice, or as much of it as a test wants. */
  @FunctionalInterface
  interface Pull {
    void pull(SliceCursor cursor) throws IOException;
  }

  /** Pulls the events of {@code index} at any time, each slice by {@code pull} into its visitor. */
  static ScanStats pullEach(
      EventStore store,
      String index,
      Supplier<EventVisitor> visitors,
      Pull pull,
      ExecutorService pool)
      throws IOException {
    return store.pullParallel(
        List.of(index),
        new MatchAllDocsQuery(),
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        () ->
            new ScanSlice() {
              @Override
              public EventVisitor visitor() {
                return visitors.get();
              }

              @Override
              public void pull(SliceCursor cursor) throws IOException {
                pull.pull(cursor);
              }
            },
        pool);
  }
}
