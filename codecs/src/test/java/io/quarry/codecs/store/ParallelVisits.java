package io.quarry.codecs.store;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.apache.lucene.search.Query;

/** A batch scan whose slices' events all go to visitors (the push form tests compare against). */
final class ParallelVisits {
  private ParallelVisits() {}

  /** Every slice's every event to its own visitor from {@code visitors}. */
  static ScanStats scan(
      EventStore store,
      List<String> indexes,
      Query query,
      long earliestMicros,
      long latestMicros,
      Supplier<EventVisitor> visitors,
      ExecutorService executor)
      throws IOException {
    return store.pullParallel(
        indexes,
        query,
        earliestMicros,
        latestMicros,
        () -> ScanSlice.visiting(visitors.get()),
        executor);
  }
}
