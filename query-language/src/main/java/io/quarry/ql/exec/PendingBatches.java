package io.quarry.ql.exec;

import io.quarry.plugin.api.data.Page;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The batches of events a {@link PluginOverlayOperator} handed its plugin and has not let go of, in
 * the order given (their row ids ascending and contiguous), and the look-up of the batch an output
 * row came from. A look-up starts where the last one found its row and walks on in order, so a
 * command answering its rows in order (as a streaming one does, or one copying blocks of them)
 * costs a constant per row however many batches are held; another order is found by binary search.
 */
final class PendingBatches {
  /** A batch: its first row id, the events' page and the plugin operator's page of it. */
  record Batch(long base, Page events, Page in) {
    boolean holds(long id) {
      return id >= base && id < base + events.positionCount();
    }
  }

  private final List<Batch> batches = new ArrayList<>();
  private int first; // the batches before it are let go of
  private int cursor; // where the last look-up found its row

  void add(Batch batch) {
    batches.add(batch);
  }

  /** Lets go of every batch. */
  void clear() {
    batches.clear();
    first = 0;
    cursor = 0;
  }

  /** Lets go of the batches before the one holding {@code id} (of all, if none holds it). */
  void dropBefore(long id) {
    while (first < batches.size() && !batches.get(first).holds(id)) {
      batches.set(first++, null);
    }
    if (first == batches.size()) {
      clear();
    } else if (first > batches.size() / 2) {
      batches.subList(0, first).clear(); // amortized: each batch moves at most once per halving
      cursor = Math.max(0, cursor - first);
      first = 0;
    }
    cursor = Math.max(cursor, first);
  }

  /**
   * The batch holding row {@code id}, or throws {@code missing}'s exception (a row the operator was
   * never given, or one of a batch let go of).
   */
  Batch find(long id, Supplier<? extends RuntimeException> missing) {
    int size = batches.size();
    for (int at = Math.max(cursor, first); at < size; at++) {
      Batch batch = batches.get(at);
      if (batch.holds(id)) {
        cursor = at;
        return batch;
      }
      if (batch.base() > id) {
        break; // before the cursor
      }
    }
    int low = first;
    int high = Math.min(cursor, size - 1);
    while (low <= high) { // the last batch whose base is at most id
      int mid = (low + high) >>> 1;
      if (batches.get(mid).base() <= id) {
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    if (high >= first && batches.get(high).holds(id)) {
      cursor = high;
      return batches.get(high);
    }
    throw missing.get();
  }
}
