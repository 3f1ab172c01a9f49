package io.quarry.plugin.api.data;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes one search holds in blocks and operator state, against a ceiling. Shared by every
 * driver of the search, so it is thread-safe. A reservation over the ceiling fails with {@link
 * MemoryLimitExceededException} and reserves nothing: the search fails, the server lives on.
 */
public final class MemoryAccount {
  private final String owner;
  private final long limit;
  private final AtomicLong used = new AtomicLong();
  private final AtomicLong peak = new AtomicLong();

  /**
   * @param owner what the account belongs to, for error messages (a search id, a test)
   * @param limit the most bytes it may hold at once
   */
  public MemoryAccount(String owner, long limit) {
    if (limit <= 0) {
      throw new IllegalArgumentException("memory limit must be positive: " + limit);
    }
    this.owner = owner;
    this.limit = limit;
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
    long now = used.addAndGet(bytes);
    if (now > limit) {
      used.addAndGet(-bytes);
      throw new MemoryLimitExceededException(owner, what, bytes, now - bytes, limit);
    }
    peak.accumulateAndGet(now, Math::max);
  }

  /** Returns bytes reserved earlier. */
  public void release(long bytes) {
    if (bytes < 0) {
      throw new IllegalArgumentException("cannot release negative bytes: " + bytes);
    }
    used.addAndGet(-bytes);
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
}
