package io.quarry.server.ingest;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The queue between threads that record items and the one daemon thread that writes them into an
 * index in batches ({@code InternalLog}, {@code AuditLog}), with the close protocol both share: an
 * item offered is queued or counted as dropped, never blocks its caller, and is never lost
 * silently. A record's look at whether the queue still runs and its offer are one step against
 * {@link #close}'s stop, so the writer's last look at the queue sees every item queued before; what
 * no batch reported (the queue was full, a write failed, left queued) the owner names when the
 * writer has ended — by close when the writer ended within close's wait, else by the writer itself
 * when it ends ({@link #end}). Items are written by the one writer thread only.
 */
public final class WriterQueue<T> {
  private final BlockingQueue<T> queue;
  private final T wake; // queued by close() to wake the writer; never written
  private final AtomicLong dropped = new AtomicLong();
  private final Object gate = new Object();
  private volatile boolean running = true; // false once close began: set under gate
  private volatile int inFlight; // the items of the batch the writer is writing
  private boolean ended; // the writer's loop is over (under gate)
  private boolean waitedOut; // close stopped waiting: the writer reports its losses (under gate)

  /**
   * @param capacity the most items queued; more are dropped and counted
   * @param wake an item never written, queued by {@link #close} to wake a writer waiting in {@link
   *     #take}
   */
  public WriterQueue(int capacity, T wake) {
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.wake = requireNonNull(wake, "wake is null");
  }

  /**
   * Queues {@code item}, or counts it as dropped when the queue is full (reported with the next
   * batch, or at close); false when the queue was stopped, and the caller must say the item is not
   * written.
   */
  public boolean offer(T item) {
    synchronized (gate) { // close stops the queue between two offers, never inside one
      if (running) {
        if (!queue.offer(item)) {
          dropped.incrementAndGet();
        }
        return true;
      }
    }
    return false;
  }

  /** Whether the writer's loop goes on: running, or items left to write. */
  public boolean hasWork() {
    return running || !queue.isEmpty();
  }

  /**
   * Stops taking items (close, or a writer interrupted); true when this call stopped it, false when
   * it was stopped before.
   */
  public boolean stop() {
    synchronized (gate) {
      boolean was = running;
      running = false;
      return was;
    }
  }

  /** The writer waits for an item. */
  public T take() throws InterruptedException {
    return queue.take();
  }

  /** The writer waits at most {@code nanos} for an item: null when none came. */
  public T poll(long nanos) throws InterruptedException {
    return queue.poll(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * The writer's next batch in {@code batch}: {@code first}, then what is queued, {@code max} in
   * all at most, without the wake marker; the batch counts as in flight until {@link #written}.
   */
  public void batch(T first, List<T> batch, int max) {
    batch.add(first);
    queue.drainTo(batch, max - 1);
    batch.removeIf(item -> item == wake);
    inFlight = batch.size();
  }

  /** The writer is done with its batch, written or not. */
  public void written() {
    inFlight = 0;
  }

  /** The items dropped since the last call, to be reported with the batch being written. */
  public long takeDropped() {
    return dropped.getAndSet(0);
  }

  /** Counts {@code count} items as dropped (a batch whose write failed). */
  public void addDropped(long count) {
    dropped.addAndGet(count);
  }

  /**
   * The writer's loop is over; true when close stopped waiting for it, and the writer must name
   * what it lost ({@link #lost}), since nobody else can.
   */
  public boolean end() {
    synchronized (gate) {
      ended = true;
      return waitedOut;
    }
  }

  /**
   * Stops the queue, wakes the writer and waits for it at most {@code wait}: -1 when it ended (its
   * losses are {@link #lost}), else how many items it may still fail to write (the batch in flight
   * and those queued), which it names when it ends.
   */
  public long close(Thread writer, Duration wait) {
    stop(); // no offer after this: the writer's last look at the queue sees them all
    queue.offer(wake); // the writer may sleep in take(); when the queue is full it does not
    try {
      writer.join(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    synchronized (gate) {
      waitedOut = !ended;
      return waitedOut ? inFlight + queued() : -1;
    }
  }

  /** What no batch reported, taken once: dropped, failed, or left in the queue. */
  public long lost() {
    return dropped.getAndSet(0) + queued();
  }

  private long queued() {
    return queue.stream().filter(item -> item != wake).count();
  }
}
