package io.quarry.codecs.wal;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.util.List;

/**
 * A batch of events encoded for the log before its sequence number is known, so that the encoding
 * (the larger part of an append) runs on the ingest thread outside the log's and the store's locks;
 * {@link WriteAheadLog#append(long, EncodedBatch)} only prefixes the number, checksums and writes.
 */
public final class EncodedBatch {
  private final byte[] events;
  private final long rawBytes;

  private EncodedBatch(byte[] events, long rawBytes) {
    this.events = events;
    this.rawBytes = rawBytes;
  }

  /** Encodes {@code events} as the log's {@code Count, Event^Count}. */
  public static EncodedBatch of(List<Event> events) throws IOException {
    long[] rawBytes = new long[1];
    byte[] encoded = WalCodec.encodeEvents(events, rawBytes);
    return new EncodedBatch(encoded, rawBytes[0]);
  }

  /** The UTF-8 bytes of the batch's {@code _raw} texts (what ingest volume is metered in). */
  public long rawBytes() {
    return rawBytes;
  }

  byte[] events() {
    return events;
  }
}
