package io.quarry.server.sourcetype;

import io.quarry.codecs.store.AsciiText;

/**
 * What one thread reuses while it reads a run of events (one request's {@link
 * io.quarry.server.ingest.EventBreaker}): the access-log parser's bounds, the timestamp parse's
 * scratch and its view over the bytes, and the last timestamp it parsed ({@link TimestampMemo}).
 * Held by the caller for the run, so no event looks a thread-local up (three of them per event, ~1%
 * of the ingest threads' CPU, before session 48). Not thread-safe: one per thread at a time.
 */
public final class ParseScratch {
  final int[] accessBounds = new int[2 * AccessLogFields.NAMES.size()];
  final StrptimeFormat.Parsed parsed = new StrptimeFormat.Parsed();
  final AsciiText view = new AsciiText();
  final TimestampMemo timestamps = new TimestampMemo();
}
