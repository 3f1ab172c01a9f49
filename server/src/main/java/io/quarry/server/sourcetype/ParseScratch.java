package io.quarry.server.sourcetype;

import io.quarry.codecs.store.AsciiText;

/**
 * What one thread reuses while it reads a run of events (one request's {@link
 * io.quarry.server.ingest.EventBreaker}): the access-log parser's bounds, the timestamp parse's
 * scratch and its view over the bytes, and the last timestamp it parsed ({@link TimestampMemo}).
 * Held by the caller for the run, so no event looks a thread-local up (three of them per event, ~1%
 * of the ingest threads' CPU, before session 48). Not thread-safe: one per thread at a time.
 *
 * <p>The scratch {@link TimestampRule} keeps per thread for callers that hold none has no memory
 * ({@link #timestamps} null): a memory kept for the thread's life would keep the last rule it saw
 * (with its per-source hints) alive past a sourcetype reload.
 */
public final class ParseScratch {
  final int[] accessBounds = new int[2 * AccessLogFields.NAMES.size()];
  final StrptimeFormat.Parsed parsed = new StrptimeFormat.Parsed();
  final AsciiText view = new AsciiText();

  /** The last timestamp parsed, or null when this scratch remembers none. */
  final TimestampMemo timestamps;

  /** A scratch that remembers the last timestamp parsed, for a caller to hold over a run. */
  public ParseScratch() {
    this(true);
  }

  private ParseScratch(boolean remembers) {
    this.timestamps = remembers ? new TimestampMemo() : null;
  }

  /** A scratch without memory: the parse state alone, for a thread-local. */
  static ParseScratch withoutMemory() {
    return new ParseScratch(false);
  }
}
