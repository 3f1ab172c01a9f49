package io.quarry.ql.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The first {@code limit} of the entries offered, by an order: a heap of at most {@code limit}
 * entries whose head is the last of them, so an entry that sorts after it is refused at once. What
 * {@code sort} keeps ({@link PageSort}).
 */
final class TopN<E> {
  private final long limit;
  private final Comparator<E> order;
  private final PriorityQueue<E> kept;

  TopN(long limit, Comparator<E> order) {
    this.limit = limit;
    this.order = order;
    this.kept = new PriorityQueue<>(order.reversed());
  }

  /**
   * Offers an entry; true when the heap grew (a new entry is held, not one swapped for another).
   */
  boolean offer(E entry) {
    if (kept.size() < limit) {
      kept.add(entry);
      return true;
    }
    if (limit > 0 && order.compare(entry, kept.peek()) < 0) {
      kept.poll();
      kept.add(entry);
    }
    return false;
  }

  /** The entries kept, in order; the heap is empty afterwards. */
  List<E> drain() {
    List<E> sorted = new ArrayList<>(kept);
    kept.clear();
    sorted.sort(order);
    return sorted;
  }

  /** Forgets every entry. */
  void clear() {
    kept.clear();
  }
}
