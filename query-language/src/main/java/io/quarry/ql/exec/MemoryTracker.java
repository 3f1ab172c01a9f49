package io.quarry.ql.exec;

import static java.util.Objects.requireNonNull;

import io.quarry.plugin.api.data.MemoryAccount;
import io.quarry.plugin.api.data.MemoryLimitExceededException;

/**
 * The memory one built-in operator holds (groups, distinct values, rows kept for sorting), reserved
 * against the search's {@link MemoryAccount} ahead of use so the shared counter is touched rarely:
 * each reservation is what is already reserved again (at least {@value #FIRST} bytes, at most
 * {@value #CHUNK}), or what the addition needs if more; when that step ahead is refused, exactly
 * what the addition needs — so what is reserved follows what is held (a tracker holding five rows
 * reserves a few KiB, not a chunk: a search of several holding stages under a small limit), and a
 * large one touches the account once per {@value #CHUNK} bytes. Over the search's limit, {@link
 * #add} throws {@code MemoryLimitExceededException} naming the stage. Sizes are estimates of heap
 * use (see the constants), not measurements. One tracker belongs to one operator and one thread at
 * a time.
 */
public final class MemoryTracker {
  /** The largest reservation ahead of use. */
  static final long CHUNK = 256 << 10;

  /** The first reservation ahead of use (eight held rows). */
  static final long FIRST = 4 << 10;

  /** A row an operator keeps (an event with its lazily extracted fields, or a result row). */
  public static final long ROW_BYTES = 512;

  /** A hash-map entry with its key list, before the key's own values. */
  public static final long ENTRY_BYTES = 96;

  private final MemoryAccount account;
  private final String stage;
  private long used;
  private long reserved;

  MemoryTracker(MemoryAccount account, String stage) {
    this.account = requireNonNull(account, "account is null");
    this.stage = requireNonNull(stage, "stage is null");
  }

  /** A tracker without a limit (operators built outside a search: tools, tests). */
  public static MemoryTracker unbounded(String stage) {
    return new MemoryTracker(MemoryAccount.unbounded("unbounded"), stage);
  }

  /** A new tracker on the same account and stage (a partial's). */
  public MemoryTracker sibling() {
    return new MemoryTracker(account, stage);
  }

  /** Counts {@code bytes} more held; over the limit, not counted (the caller holds them not). */
  public void add(long bytes) {
    used += bytes;
    if (used > reserved) {
      long needed = used - reserved;
      long chunk = Math.max(Math.min(CHUNK, Math.max(FIRST, reserved)), needed);
      try {
        reserved += reserveAhead(chunk, needed);
      } catch (RuntimeException e) {
        used -= bytes;
        throw e;
      }
    }
  }

  /**
   * Reserves {@code chunk} bytes, or only the {@code needed} ones when the step ahead is refused (a
   * tracker close to the limit holds what it uses, no more); returns what it reserved. Over the
   * limit even so, the exception names {@code needed}, not the step.
   */
  private long reserveAhead(long chunk, long needed) {
    if (chunk > needed) {
      try {
        account.reserve(chunk, stage);
        return chunk;
      } catch (MemoryLimitExceededException refused) {
        // the step ahead does not fit; what the addition needs may
      }
    }
    account.reserve(needed, stage);
    return needed;
  }

  /**
   * Holds {@code shared} (an object several holders keep, by identity: a segment's whole dictionary
   * block that a scan's slices and the aggregations' partials refer to): its {@code bytes} are
   * charged to the search once, however many hold it ({@link MemoryAccount#reserveShared}), apart
   * from what this tracker counts. Every hold is matched by a {@link #letGoShared}.
   *
   * @throws MemoryLimitExceededException when its first holder's charge passes the limit (it is not
   *     held then)
   */
  public void holdShared(Object shared, long bytes) {
    account.reserveShared(shared, bytes, stage);
  }

  /** Lets go of {@code shared} held once ({@link #holdShared}); the last gives its bytes back. */
  public void letGoShared(Object shared, long bytes) {
    account.releaseShared(shared, bytes);
  }

  /** Everything held was dropped. */
  public void release() {
    account.release(reserved);
    used = 0;
    reserved = 0;
  }

  /** Bytes the search's limit leaves free now, over every stage (held memory that is optional). */
  public long free() {
    return account.limit() - account.used();
  }

  /** Bytes counted so far. */
  public long used() {
    return used;
  }

  /** The estimated heap size of one value: a String's characters or a boxed number. */
  public static long valueBytes(Object value) {
    return value instanceof String text ? 40 + 2L * text.length() : 24;
  }
}
