package io.quarry.plugin.api.data;

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
 */
public final class MemoryAccount {
  private final String owner;
  private final long limit;
  private final MemoryAccount parent;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();
  private boolean closed; // guarded by this; only accounts with a parent synchronize

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
