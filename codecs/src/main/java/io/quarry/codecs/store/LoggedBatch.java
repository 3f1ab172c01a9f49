package io.quarry.codecs.store;

import io.quarry.codecs.wal.WriteAheadLog;
import java.io.IOException;

/**
 * A batch appended to its index's write-ahead log and added to the hot bucket, whose durability is
 * not yet waited for ({@link IndexStore#append}). {@link #awaitDurable} returns once the log's
 * group fsync covers the batch; until then a crash may lose it, so nothing may acknowledge it
 * before. Waiting later than the append is what lets one request write to several indexes and wait
 * for all their fsyncs at once, its ingest pipeline handed on meanwhile; a batch nobody waits for
 * is still forced by the next fsync of its log (another add's, or the log's roll) and replayed
 * after a crash.
 */
public final class LoggedBatch {
  /** No events: nothing to wait for. */
  static final LoggedBatch NONE = new LoggedBatch(null, 0, 0);

  private final WriteAheadLog log;
  private final long position;
  private final long rawBytes;

  LoggedBatch(WriteAheadLog log, long position, long rawBytes) {
    this.log = log;
    this.position = position;
    this.rawBytes = rawBytes;
  }

  /**
   * Returns once the batch is on stable storage (the log's group fsync: one caller forces the file,
   * every caller whose bytes it covered returns).
   *
   * @return the UTF-8 bytes of the batch's raw texts
   * @throws IOException when the fsync failed: the log fails stop ({@link WriteAheadLog#sync})
   */
  public long awaitDurable() throws IOException {
    if (log != null) {
      log.sync(position);
    }
    return rawBytes;
  }

  /** The UTF-8 bytes of the batch's raw texts. */
  public long rawBytes() {
    return rawBytes;
  }
}
