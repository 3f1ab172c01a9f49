package io.quarry.server.sourcetype;

import java.util.function.IntConsumer;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link EqualsPass} with the Vector API: one compare of the widest vector the CPU has (at most 64
 * bytes, one bit each in a {@code long}), the bytes after the last whole vector one at a time.
 * Loaded only when the JVM has {@code jdk.incubator.vector}.
 */
final class VectorEqualsPass extends EqualsPass {
  private static final VectorSpecies<Byte> SPECIES =
      ByteVector.SPECIES_PREFERRED.length() <= Long.SIZE
          ? ByteVector.SPECIES_PREFERRED
          : ByteVector.SPECIES_512; // a wider CPU (SVE): the mask must fit a long
  private static final byte EQUALS = '=';

  /** The vector pass when the CPU's vectors hold at least 16 bytes, else null (the scalar's). */
  static EqualsPass ifWider() {
    return SPECIES.length() >= 16 ? new VectorEqualsPass() : null;
  }

  /** The bytes of one compare. */
  static int lanes() {
    return SPECIES.length();
  }

  @Override
  void run(byte[] bytes, int from, int end, IntConsumer found) {
    int i = from;
    int bound = from + SPECIES.loopBound(end - from);
    for (; i < bound; i += SPECIES.length()) {
      long marks = ByteVector.fromArray(SPECIES, bytes, i).eq(EQUALS).toLong();
      while (marks != 0) {
        found.accept(i + Long.numberOfTrailingZeros(marks));
        marks &= marks - 1;
      }
    }
    ScalarEqualsPass.tail(bytes, i, end, found);
  }

  @Override
  public String toString() {
    return "vector " + SPECIES.vectorBitSize() + "-bit";
  }
}
