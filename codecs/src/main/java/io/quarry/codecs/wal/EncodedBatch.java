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
  private final WalCodec.Output output; // given back after the append when reused, else null
  private final byte[] events;
  private final int length;
  private final long rawBytes;

  private EncodedBatch(WalCodec.Output output, byte[] events, int length, long rawBytes) {
    this.output = output;
    this.events = events;
    this.length = length;
    this.rawBytes = rawBytes;
  }

  /**
   * Encodes {@code events} as the log's {@code Count, Event^Count}; an event's {@code _raw} whose
   * ASCII bytes it holds ({@link Event#asciiArray}) is copied from them, not encoded again.
   */
  public static EncodedBatch of(List<Event> events) throws IOException {
    long[] rawBytes = new long[1];
    WalCodec.Output encoded = WalCodec.encodeEvents(events, rawBytes);
    return new EncodedBatch(null, encoded.bytes, encoded.length, rawBytes[0]);
  }

  /**
   * Encodes {@code events} as {@link #of(List)} does, into an array used before when one was given
   * back ({@link #giveBack}): saves allocating and zeroing a request-sized array per batch. The
   * caller gives the batch back once it is appended, and then uses it no more.
   */
  public static EncodedBatch reusing(List<Event> events) throws IOException {
    long[] rawBytes = new long[1];
    WalCodec.Output encoded = WalCodec.encodeEventsPooled(events, rawBytes);
    return new EncodedBatch(encoded, encoded.bytes, encoded.length, rawBytes[0]);
  }

  /**
   * Gives a batch's array back for another batch ({@link #reusing}; nothing for a batch made by
   * {@link #of}): its bytes are no longer read, by the caller or the log. {@link #rawBytes} still
   * answers.
   */
  public void giveBack() {
    if (output != null) {
      WalCodec.giveBack(output);
    }
  }

  /** The UTF-8 bytes of the batch's {@code _raw} texts (what ingest volume is metered in). */
  public long rawBytes() {
    return rawBytes;
  }

  /** The encoded events: the first {@link #length} bytes of this array (not a copy). */
  byte[] events() {
    return events;
  }

  /** The number of encoded bytes at the start of {@link #events}. */
  int length() {
    return length;
  }
}
