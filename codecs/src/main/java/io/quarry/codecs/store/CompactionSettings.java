package io.quarry.codecs.store;

import java.time.Duration;

/**
 * When a hot bucket's journal is compacted (its fast zstd-1 blocks rewritten as compact zstd-9
 * ones, docs/design/block-index.md, "Compaction out of the ingest window").
 *
 * <p>{@code deferred} (the default): while the bucket takes events its merges write fast blocks
 * only, and a compaction merges the segments still fast into compact ones when no event was added
 * for {@code idle}, when the fast segments pass {@code pendingBytes} (a never-idle ingest still
 * compacts, so its store does not stay larger than it has to), and when the bucket rolls to warm.
 * Otherwise ({@code inline}, before session 33): merges of at least {@link
 * io.quarry.codecs.journal.JournalStoredFieldsFormat#compactMergeBytes()} write compact blocks as
 * they run, inside the ingest.
 *
 * <p>An idle bucket is compacted only once its fast segments (with the events not yet flushed) hold
 * at least {@code idleMinBytes}: a small index ({@code _audit}, {@code _internal}) is not flushed
 * and rewritten at zstd 12 after every idle gap; its roll compacts it.
 *
 * <p>The server sets them from {@code storage.compaction} of {@code quarry.yml} (and an index's own
 * {@code storage.indexes.<name>.compaction}); {@link #DEFAULTS} unless set: deferred, 5 s idle, 1
 * MiB, 1 GiB.
 *
 * @param deferred whether compaction waits for idle, the bound or the roll (else: inline)
 * @param idle a bucket no event was added to for this long is compacted
 * @param idleMinBytes the fast bytes an idle bucket holds at least for its compaction to start
 * @param pendingBytes a bucket whose fast segments hold this many bytes is compacted even while
 *     events arrive
 */
public record CompactionSettings(
    boolean deferred, Duration idle, long idleMinBytes, long pendingBytes) {
  public static final Duration DEFAULT_IDLE = Duration.ofSeconds(5);
  public static final long DEFAULT_IDLE_MIN_BYTES = 1L << 20;
  public static final long DEFAULT_PENDING_BYTES = 1L << 30;

  /** Deferred compaction with the default idle time and bounds. */
  public static final CompactionSettings DEFAULTS =
      new CompactionSettings(true, DEFAULT_IDLE, DEFAULT_IDLE_MIN_BYTES, DEFAULT_PENDING_BYTES);

  /** Compaction as it was before session 33: large merges compact as they run. */
  public static final CompactionSettings INLINE =
      new CompactionSettings(false, DEFAULT_IDLE, DEFAULT_IDLE_MIN_BYTES, DEFAULT_PENDING_BYTES);

  public CompactionSettings {
    java.util.Objects.requireNonNull(idle, "idle is null");
    if (idle.isNegative()) {
      throw new IllegalArgumentException("idle must not be negative: " + idle);
    }
    if (idleMinBytes < 1) {
      throw new IllegalArgumentException("idleMinBytes must be positive: " + idleMinBytes);
    }
    if (pendingBytes < 1) {
      throw new IllegalArgumentException("pendingBytes must be positive: " + pendingBytes);
    }
  }

  /**
   * Whether a bucket is due a compaction: its fast segments ({@code fastBytes}) with the events not
   * yet flushed ({@code unflushedBytes}) hold at least {@link #idleMinBytes} and it is {@code
   * idle}, or its fast segments hold at least {@link #pendingBytes}.
   */
  public boolean due(long fastBytes, long unflushedBytes, boolean idle) {
    return idle && fastBytes + unflushedBytes >= idleMinBytes || fastBytes >= pendingBytes;
  }

  /**
   * {@link #idle} in nanoseconds, saturated at {@link Long#MAX_VALUE} (never idle) where it does
   * not fit a long of them: {@code Duration.toNanos} throws past about 292 years.
   */
  public long idleNanos() {
    return idle.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : idle.toNanos();
  }

  /** Settings whose idle trigger takes any fast byte (tests of small indexes). */
  public CompactionSettings(boolean deferred, Duration idle, long pendingBytes) {
    this(deferred, idle, 1, pendingBytes);
  }
}
