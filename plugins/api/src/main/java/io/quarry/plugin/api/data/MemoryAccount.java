package io.quarry.plugin.api.data;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes one search holds in blocks and operator state, against a ceiling. Shared by every
 * driver of the search, so it is thread-safe. A reservation over the ceiling fails with {@link
 * MemoryLimitExceededException} and reserves nothing: the search fails, the server lives on.
 *
 * <p>An account may have a parent (a circuit breaker over every running search, as Elasticsearch's
 * parent breaker is over its child breakers): each reservation is also made in the parent and fails
 * when the parent would go over its own ceiling; {@link #close} gives back to the parent whatever
 * the account still holds when its search ends, and later reservations and releases stay local.
 *
 * <p>Memory several blocks share (a dictionary and the blocks of ordinals into it) is held by the
 * account once: {@link BlockFactory} reserves it with the first block that holds it and releases it
 * with the last ({@link #reserveShared}, {@link #releaseShared}); a search's whole segment
 * dictionary and the aggregations that keep their groups by its entries share it the same way.
 */
public final class MemoryAccount {
  private final String owner;
  private final long limit;
  private final MemoryAccount parent;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();
  private boolean closed; // guarded by this; only accounts with a parent synchronize
  private final Object sharedLock = new Object();
  private Map<Object, int[]> holders; // guarded by sharedLock; made when first needed

  /**
   * @param owner what the account belongs to, for error messages (a search id, a test)
   * @param limit the most bytes it may hold at once
   */
  public MemoryAccount(String owner, long limit) {
    this(owner, limit, null);
  }

  /**
   * @param owner what the account belongs to, for error messages (a search id, a test)
   * @param limit the most bytes it may hold at once
   * @param parent an account every reservation is also made in, or null
   */
  public MemoryAccount(String owner, long limit, MemoryAccount parent) {
    if (limit <= 0) {
      throw new IllegalArgumentException("memory limit must be positive: " + limit);
    }
    this.owner = owner;
    this.limit = limit;
    this.parent = parent;
  }

  /** An account without a practical ceiling (tools and tests that only want the counts). */
  public static MemoryAccount unbounded(String owner) {
    return new MemoryAccount(owner, Long.MAX_VALUE);
  }

  /**
   * Reserves bytes for {@code what} (a command name, "block").
   *
   * @throws MemoryLimitExceededException when the account would go over its limit
   */
  public void reserve(long bytes, String what) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot reserve negative bytes: " + bytes);
    }
    if (parent == null) {
      reserveHere(bytes, what);
      return;
    }
    synchronized (this) {
      reserveHere(bytes, what);
      if (!closed) {
        try {
          parent.reserve(bytes, what);
        } catch (MemoryLimitExceededException overParent) {
          used.addAndGet(-bytes);
          throw overParent;
        }
      }
    }
  }

  /**
   * Adds {@code bytes} unless that would pass the limit: a compare-and-set loop, so {@link #used}
   * never shows more than the limit, not even for an instant to another thread (an add that is
   * taken back would, and would refuse another search's reservation meanwhile).
   */
  private void reserveHere(long bytes, String what) {
    long before;
    long now;
    do {
      before = used.get();
      now = before + bytes;
      if (now > limit) {
        throw new MemoryLimitExceededException(owner, what, bytes, before, limit);
      }
    } while (!used.compareAndSet(before, now));
    peak.accumulateAndGet(now, Math::max);
  }

  /** Returns bytes reserved earlier. */
  public void release(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot release negative bytes: " + bytes);
    }
    if (parent == null) {
      used.addAndGet(-bytes);
      return;
    }
    synchronized (this) {
      used.addAndGet(-bytes);
      if (!closed) {
        parent.release(bytes);
      }
    }
  }

  /**
   * Reserves {@code bytes} for {@code shared} (an object several blocks hold, by identity) when no
   * holder has reserved it yet, else counts one more holder.
   *
   * @throws MemoryLimitExceededException when the account would go over its limit (no holder is
   *     counted then)
   */
  public void reserveShared(Object shared, long bytes, String what) {
    synchronized (sharedLock) {
      if (holders == null) {
        holders = new IdentityHashMap<>();
      }
      int[] count = holders.get(shared);
      if (count != null) {
        count[0]++;
        return;
      }
      reserve(bytes, what);
      holders.put(shared, new int[] {1});
    }
  }

  /**
   * Counts one holder of {@code shared} less and releases its {@code bytes} with the last. A
   * release without a holder releases the bytes (a bug, as releasing a block twice: {@link #used}
   * shows it).
   */
  public void releaseShared(Object shared, long bytes) {
    synchronized (sharedLock) {
      int[] count = holders == null ? null : holders.get(shared);
      if (count != null && --count[0] > 0) {
        return;
      }
      if (count != null) {
        holders.remove(shared);
      }
      release(bytes);
    }
  }

  /** How many holders {@code shared} has in this account (0: not reserved here). */
  int holders(Object shared) {
    synchronized (sharedLock) {
      int[] count = holders == null ? null : holders.get(shared);
      return count == null ? 0 : count[0];
    }
  }

  /**
   * Gives back to the parent what this account still holds (its search is over, whatever its
   * operators released or not); from now on reservations and releases no longer reach the parent.
   * Without a parent this does nothing.
   */
  public void close() {
    if (parent == null) {
      return;
    }
    synchronized (this) {
      if (!closed) {
        closed = true;
        long held = used.get();
        if (held > 0) {
          parent.release(held);
        }
      }
    }
  }

  /** Bytes reserved now (negative only when something released more than it reserved: a bug). */
  public long used() {
    return used.get();
  }

  /** The most bytes held at once. */
  public long peak() {
    return peak.get();
  }

  public long limit() {
    return limit;
  }

  /** What the account belongs to (a search, {@code all searches}), as errors name it. */
  public String owner() {
    return owner;
  }
}
