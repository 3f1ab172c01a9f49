package io.quarry.server.sourcetype;

import java.util.function.IntConsumer;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link EqualsPass} with the Vector API: the widest vector the CPU has (at most 64 bytes, one bit
 * each in a {@code long}) compared with {@code =}, and where it holds one the vectors a byte before
 * and after compared with the key's last byte and a quote; the region's first byte and those after
 * the last whole vector one at a time. Loaded only when the JVM has {@code jdk.incubator.vector}.
 */
final class VectorEqualsPass extends EqualsPass {
  private static final VectorSpecies<Byte> SPECIES =
      ByteVector.SPECIES_PREFERRED.length() <= Long.SIZE
          ? ByteVector.SPECIES_PREFERRED
          : ByteVector.SPECIES_512; // a wider CPU (SVE): the mask must fit a long
  private static final byte EQUALS = '=';
  private static final byte QUOTE = '"';

  /** The vector pass when the CPU's vectors hold at least 16 bytes, else null (the scalar's). */
  static EqualsPass ifWider() {
    return SPECIES.length() >= 16 ? new VectorEqualsPass() : null;
  }

  /** The bytes of one compare. */
  static int lanes() {
    return SPECIES.length();
  }

  @Override
  void run(byte[] bytes, int from, int end, byte before, IntConsumer found) {
    // three compares per vector: '=' at i, the byte before it (a load from i - 1), a quote after
    // it (from i + 1); so the vectors start at from + 1 and end a byte before the region does
    int lanes = SPECIES.length();
    int i = Math.min(from + 1, end);
    ScalarEqualsPass.bytes(bytes, from, end, from, i, before, found);
    for (; i + lanes < end; i += lanes) {
      long signs = ByteVector.fromArray(SPECIES, bytes, i).eq(EQUALS).toLong();
      if (signs == 0) {
        continue;
      }
      long keyEnds = ByteVector.fromArray(SPECIES, bytes, i - 1).eq(before).toLong();
      long quoted = ByteVector.fromArray(SPECIES, bytes, i + 1).eq(QUOTE).toLong();
      long marks = signs & (keyEnds | quoted);
      while (marks != 0) {
        found.accept(i + Long.numberOfTrailingZeros(marks));
        marks &= marks - 1;
      }
    }
    ScalarEqualsPass.bytes(bytes, from, end, i, end, before, found);
  }

  @Override
  public String toString() {
    return "vector " + SPECIES.vectorBitSize() + "-bit";
  }
}
