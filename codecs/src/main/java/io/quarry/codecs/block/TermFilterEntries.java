package io.quarry.codecs.block;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.lucene.util.BytesRef;

/**
 * A block's term filter entries as its document carries them until the segment is written (issue
 * 23): the {@link TermFilter#hash}es of its distinct terms and {@link TermFilter#prefixHash}es of
 * its distinct prefixes, from which {@link TermFilterFormat}'s writer builds the filter at the
 * flush, once it knows the segment's {@link CommonTerms} to leave out. Never written to a file: a
 * segment holds filters only.
 *
 * <pre>
 * Entries := Marker(byte=0) Hash(long, little-endian)^n
 * </pre>
 *
 * The marker tells entries from a filter (whose first byte is {@link TermFilter#VERSION}, never 0),
 * which a document may carry instead: the writer keeps such a value as it is.
 */
public final class TermFilterEntries {
  static final byte MARKER = 0;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private TermFilterEntries() {}

  /** The entries form of the first {@code count} of {@code hashes}. */
  public static BytesRef of(long[] hashes, int count) {
    byte[] bytes = new byte[1 + Long.BYTES * count];
    bytes[0] = MARKER;
    for (int i = 0; i < count; i++) {
      LONGS.set(bytes, 1 + Long.BYTES * i, hashes[i]);
    }
    return new BytesRef(bytes);
  }

  /** Whether {@code value} is in the entries form (else it should be a filter). */
  static boolean is(BytesRef value) {
    return value.length >= 1
        && value.bytes[value.offset] == MARKER
        && (value.length - 1) % Long.BYTES == 0;
  }

  /** The number of hashes of a value in the entries form. */
  static int count(BytesRef value) {
    return (value.length - 1) / Long.BYTES;
  }

  /** Hash {@code i} of a value in the entries form. */
  static long get(BytesRef value, int i) {
    return (long) LONGS.get(value.bytes, value.offset + 1 + Long.BYTES * i);
  }
}
