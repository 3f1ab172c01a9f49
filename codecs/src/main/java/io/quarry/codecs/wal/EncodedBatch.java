package io.quarry.codecs.wal;

import io.quarry.codecs.store.Event;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A batch of events encoded for the log before its sequence number is known, so that the encoding
 * runs on the ingest thread outside the log's and the store's locks; {@link
 * WriteAheadLog#append(long, EncodedBatch)} only prefixes the number, checksums and writes. The
 * events' texts are not copied when they are ranges of one request body: the record's body is then
 * that array's span, written from it ({@link WalCodec}).
 */
public final class EncodedBatch {
  private final WalCodec.Encoded encoded;
  private final boolean pooled;

  private EncodedBatch(WalCodec.Encoded encoded, boolean pooled) {
    this.encoded = encoded;
    this.pooled = pooled;
  }

  /** Encodes {@code events} as the log's records hold them (see {@link WalCodec}). */
  public static EncodedBatch of(List<Event> events) throws IOException {
    return new EncodedBatch(WalCodec.encode(events), false);
  }

  /**
   * The bytes the record of {@code events} takes after its {@code FirstSeq}, as {@link #of(List)}
   * would encode them, counted without encoding or copying any text: what {@link
   * WriteAheadLog#requireFits(long, long)} checks before a batch is built.
   */
  public static long lengthOf(List<Event> events) {
    return WalCodec.length(events);
  }

  /**
   * Encodes {@code events} as {@link #of(List)} does, into an array used before when one was given
   * back ({@link #giveBack}): saves allocating and zeroing an array per batch. The caller gives the
   * batch back once it is appended, and then uses it no more.
   */
  public static EncodedBatch reusing(List<Event> events) throws IOException {
    return new EncodedBatch(WalCodec.encodePooled(events), true);
  }

  /**
   * Gives a batch's array back for another batch ({@link #reusing}; nothing for a batch made by
   * {@link #of}): its bytes are no longer read, by the caller or the log. {@link #rawBytes} still
   * answers.
   */
  public void giveBack() {
    if (pooled) {
      WalCodec.giveBack(encoded.out());
    }
  }

  /** The UTF-8 bytes of the batch's {@code _raw} texts (what ingest volume is metered in). */
  public long rawBytes() {
    return encoded.rawBytes();
  }

  /** The record's bytes after its {@code FirstSeq}, in order: the encoded part, then the body. */
  ByteBuffer[] pieces() {
    return new ByteBuffer[] {
      ByteBuffer.wrap(encoded.out().bytes, 0, encoded.out().length),
      ByteBuffer.wrap(encoded.body(), encoded.bodyOffset(), encoded.bodyLength())
    };
  }

  /** The number of bytes of {@link #pieces}. */
  long length() {
    return (long) encoded.out().length + encoded.bodyLength();
  }
}
