package io.quarry.server.sourcetype;

import java.util.List;
import java.util.function.IntConsumer;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link EqualsPass} with the Vector API: a vector of bytes (the widest the CPU has, at most 64
 * bytes, one bit each in a {@code long}) compared with {@code =}, the vectors a byte before and
 * after it with the key's last byte and a quote, the three masks combined before one move to a
 * {@code long} (no branch per vector but the loop's own); the region's first byte and those after
 * the last whole vector one at a time. Loaded only when the JVM has {@code jdk.incubator.vector}.
 *
 * <p>One subclass per width, each returning one of {@link ByteVector}'s static species: HotSpot
 * compiles the Vector API to SIMD instructions only for a species it knows as a constant when it
 * compiles, and a species held in an instance field is none (every vector would be boxed). A JVM
 * loads the subclass of the width it runs and no other, so {@link #species} has one implementation
 * and is compiled as its constant. A JVM that loads several ({@link #of} other widths: a test's own
 * JVM, {@code EqualsPassAgreement}) runs every width's pass with the species not a constant, ten to
 * a hundred times slower than the scalar pass (session 37: 148–1,121 against 20 ms of thread CPU
 * for 300,000 access-log lines, where the one width alone takes 12–13 ms).
 */
abstract sealed class VectorEqualsPass extends EqualsPass {
  private static final byte EQUALS = '=';
  private static final byte QUOTE = '"';

  private VectorEqualsPass() {}

  /**
   * The CPU's widest byte vector, at most 512 bits (a wider CPU, SVE: the mask must fit a long).
   * Asked, not held in a static field: {@link EqualsPass#CHOSEN} may be chosen while this class is
   * initialized (a JVM whose first use is this class initializes its superclass first, which calls
   * {@link #ifWider}), and a field of it would still be null then.
   */
  private static VectorSpecies<Byte> preferredSpecies() {
    return ByteVector.SPECIES_PREFERRED.length() <= Long.SIZE
        ? ByteVector.SPECIES_PREFERRED
        : ByteVector.SPECIES_512;
  }

  /** The vector pass when the CPU's vectors hold at least 16 bytes, else null (the scalar's). */
  static EqualsPass ifWider() {
    VectorSpecies<Byte> preferred = preferredSpecies();
    return preferred.length() >= 16 ? of(preferred) : null;
  }

  /** The pass of the CPU's widest vectors (at most 512 bits). */
  static VectorEqualsPass preferred() {
    return of(preferredSpecies());
  }

  /**
   * The pass of {@code species}' vectors: 128, 256 or 512 bits (a test runs each width the CPU has;
   * one the CPU lacks runs too, in Java code, slowly).
   */
  static VectorEqualsPass of(VectorSpecies<Byte> species) {
    return switch (species.vectorBitSize()) {
      case 128 -> new Bits128();
      case 256 -> new Bits256();
      case 512 -> new Bits512();
      default -> throw new IllegalArgumentException("no pass of " + species);
    };
  }

  /** The species of every width from 128 bits to the CPU's widest (at most 512). */
  static List<VectorSpecies<Byte>> widths() {
    return List.of(ByteVector.SPECIES_128, ByteVector.SPECIES_256, ByteVector.SPECIES_512).stream()
        .filter(s -> s.vectorBitSize() <= preferredSpecies().vectorBitSize())
        .toList();
  }

  /** The species this pass compares with: a constant of {@link ByteVector}. */
  abstract VectorSpecies<Byte> species();

  /** The bytes of one compare. */
  final int lanes() {
    return species().length();
  }

  @Override
  final void run(byte[] bytes, int from, int end, byte before, IntConsumer found) {
    VectorSpecies<Byte> species = species();
    // three compares per vector: '=' at i, the byte before it (a load from i - 1), a quote after
    // it (from i + 1); so the vectors start at from + 1 and end a byte before the region does
    int lanes = species.length();
    int i = Math.min(from + 1, end);
    ScalarEqualsPass.bytes(bytes, from, end, from, i, before, found);
    // every vector's three compares combined as masks, one move to a long and no branch before
    // it: a branch on "no '=' here" is taken about half the time over access-log text and
    // mispredicted as often (session 38, spankeys: 30.5 -> 18.5 ms of thread CPU for 1M lines)
    for (; i + lanes < end; i += lanes) {
      VectorMask<Byte> signs = ByteVector.fromArray(species, bytes, i).eq(EQUALS);
      VectorMask<Byte> keyEnds = ByteVector.fromArray(species, bytes, i - 1).eq(before);
      VectorMask<Byte> quoted = ByteVector.fromArray(species, bytes, i + 1).eq(QUOTE);
      long marks = signs.and(keyEnds.or(quoted)).toLong();
      while (marks != 0) {
        found.accept(i + Long.numberOfTrailingZeros(marks));
        marks &= marks - 1;
      }
    }
    ScalarEqualsPass.bytes(bytes, from, end, i, end, before, found);
  }

  @Override
  public final String toString() {
    return "vector " + species().vectorBitSize() + "-bit";
  }

  private static final class Bits128 extends VectorEqualsPass {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_128;
    }
  }

  private static final class Bits256 extends VectorEqualsPass {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_256;
    }
  }

  private static final class Bits512 extends VectorEqualsPass {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_512;
    }
  }
}
