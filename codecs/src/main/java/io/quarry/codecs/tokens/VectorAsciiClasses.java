package io.quarry.codecs.tokens;

import java.util.List;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link AsciiClasses} with the Vector API: a vector of bytes (the widest the CPU has, at most 64
 * bytes, one bit each in a {@code long}) lower-cased and stored, and compared with the breakers'
 * ranges — majors {@code 09-0D 1C-22 26-2C 3B-3F 5B 5D 7B-7D} (white space and {@code [ ] < > ( ) {
 * } | ! ; , ' " * & ? + =}), minors {@code 23-25 2D-2F 3A 40 5C 5F} ({@code / : @ . - $ # % \ _}),
 * the quote {@code 22} — each mask moved to a {@code long} once per vector. A text's last partial
 * vector is the vector ending at its last byte, overlapping the one before (its bits shifted past
 * those already set); a text shorter than a vector goes byte by byte. Loaded only when the JVM has
 * {@code jdk.incubator.vector}.
 *
 * <p>One subclass per width, each returning one of {@link ByteVector}'s static species, as the
 * server's {@code sourcetype.VectorEqualsPass} (which says why: HotSpot compiles the Vector API to
 * SIMD instructions only for a species it knows as a constant, and a JVM loads one width).
 */
abstract class VectorAsciiClasses extends AsciiClasses {
  private VectorAsciiClasses() {}

  /** The CPU's widest byte vector, at most 512 bits (the mask must fit a long). */
  private static VectorSpecies<Byte> preferredSpecies() {
    return ByteVector.SPECIES_PREFERRED.length() <= Long.SIZE
        ? ByteVector.SPECIES_PREFERRED
        : ByteVector.SPECIES_512;
  }

  /** The classifier of the CPU's widest vectors when they hold at least 16 bytes, else null. */
  static AsciiClasses ifWider() {
    VectorSpecies<Byte> preferred = preferredSpecies();
    return preferred.length() >= 16 ? of(preferred) : null;
  }

  /** The classifier of {@code species}' vectors: 128, 256 or 512 bits. */
  static VectorAsciiClasses of(VectorSpecies<Byte> species) {
    return switch (species.vectorBitSize()) {
      case 128 -> new Bits128();
      case 256 -> new Bits256();
      case 512 -> new Bits512();
      default -> throw new IllegalArgumentException("no classifier of " + species);
    };
  }

  /** The species of every width from 128 bits to the CPU's widest (at most 512), for tests. */
  static List<VectorSpecies<Byte>> widths() {
    return List.of(ByteVector.SPECIES_128, ByteVector.SPECIES_256, ByteVector.SPECIES_512).stream()
        .filter(s -> s.vectorBitSize() <= preferredSpecies().vectorBitSize())
        .toList();
  }

  /** The species this classifier reads with: a constant of {@link ByteVector}. */
  abstract VectorSpecies<Byte> species();

  @Override
  final void classify(
      byte[] text,
      int offset,
      int length,
      byte[] lower,
      long[] majors,
      long[] minors,
      long[] quotes) {
    VectorSpecies<Byte> species = species();
    int lanes = species.length();
    clear(length, majors, minors, quotes);
    int i = 0;
    for (; i + lanes <= length; i += lanes) {
      vector(species, text, offset, i, lower, majors, minors, quotes, i);
    }
    if (i < length) {
      if (length >= lanes) {
        vector(species, text, offset, length - lanes, lower, majors, minors, quotes, i);
      } else {
        classifyBytes(text, offset, i, length, lower, majors, minors, quotes);
      }
    }
    endAt(length, majors);
  }

  /**
   * The vector of bytes from {@code from}: lower-cased into {@code lower[from]}, its classes' bits
   * from {@code at} on (at least {@code from}, a multiple of the lanes: bits before {@code at} were
   * set by the vector before) or'ed into the masks.
   */
  private static void vector(
      VectorSpecies<Byte> species,
      byte[] text,
      int offset,
      int from,
      byte[] lower,
      long[] majors,
      long[] minors,
      long[] quotes,
      int at) {
    ByteVector v = ByteVector.fromArray(species, text, offset + from);
    ByteVector kinds = species.length() == 64 ? kinds64(v) : kinds(v);
    v.or(kinds.and(UPPER)).intoArray(lower, from);
    int skip = at - from;
    int word = at >>> 6;
    int bit = at & 63;
    majors[word] |= (kinds.test(VectorOperators.IS_NEGATIVE).toLong() >>> skip) << bit;
    minors[word] |=
        (kinds.and(MINOR).compare(VectorOperators.NE, (byte) 0).toLong() >>> skip) << bit;
    quotes[word] |=
        (kinds.and(QUOTE).compare(VectorOperators.NE, (byte) 0).toLong() >>> skip) << bit;
  }

  // a byte's kind: these bits, or none (a byte of a token)
  private static final byte MAJOR = (byte) 0x80;
  private static final byte MINOR = 1;
  private static final byte QUOTE = 2;
  private static final byte UPPER = 0x20; // 'A'-'Z': or'ed in, lower-cases the byte

  /** The kinds of the bytes 0x00-0x3F and 0x40-0x7F, for {@link #kinds64}. */
  private static final byte[] KINDS = new byte[0x80];

  static {
    for (char c = 0; c < 0x80; c++) {
      KINDS[c] =
          (byte)
              ((Segmenter.isMajorBreaker(c) ? MAJOR : 0)
                  | (Segmenter.isMinorBreaker(c) ? MINOR : 0)
                  | (c == '"' ? QUOTE : 0)
                  | (c >= 'A' && c <= 'Z' ? UPPER : 0));
    }
  }

  /**
   * The kinds of a 64-byte vector's bytes by table: each byte's low six bits select from the table
   * of its half of ASCII (one permute each), a byte from 0x80 none.
   */
  private static ByteVector kinds64(ByteVector v) {
    VectorSpecies<Byte> species = ByteVector.SPECIES_512;
    ByteVector index = v.and((byte) 0x3F);
    ByteVector low = index.selectFrom(ByteVector.fromArray(species, KINDS, 0));
    ByteVector high = index.selectFrom(ByteVector.fromArray(species, KINDS, 0x40));
    return low.blend(high, v.compare(VectorOperators.GE, (byte) 0x40))
        .blend((byte) 0, v.compare(VectorOperators.LT, (byte) 0));
  }

  /** The kinds of a narrower vector's bytes by compares with the breakers' ranges. */
  private static ByteVector kinds(ByteVector v) {
    VectorMask<Byte> major =
        within(v, 0x09, 0x0D) // \t \n \u000b \f \r
            .or(within(v, 0x1C, 0x22)) // \u001c-\u001f space ! "
            .or(within(v, 0x26, 0x2C)) // & ' ( ) * + ,
            .or(within(v, 0x3B, 0x3F)) // ; < = > ?
            .or(v.eq((byte) '['))
            .or(v.eq((byte) ']'))
            .or(within(v, 0x7B, 0x7D)); // { | }
    VectorMask<Byte> minor =
        within(v, 0x23, 0x25) // # $ %
            .or(within(v, 0x2D, 0x2F)) // - . /
            .or(v.eq((byte) ':'))
            .or(v.eq((byte) '@'))
            .or(v.eq((byte) '\\'))
            .or(v.eq((byte) '_'));
    ByteVector zero = v.broadcast(0);
    return zero.blend(MAJOR, major)
        .blend(MINOR, minor)
        .blend(QUOTE | MAJOR, v.eq((byte) '"'))
        .blend(UPPER, within(v, 'A', 'Z'));
  }

  /** The lanes holding a byte in {@code [low, high]} (both below 0x80: bytes from 0x80 are not). */
  private static VectorMask<Byte> within(ByteVector v, int low, int high) {
    return v.compare(VectorOperators.GE, (byte) low)
        .and(v.compare(VectorOperators.LE, (byte) high));
  }

  @Override
  public final String toString() {
    return "vector " + species().vectorBitSize() + "-bit";
  }

  private static final class Bits128 extends VectorAsciiClasses {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_128;
    }
  }

  private static final class Bits256 extends VectorAsciiClasses {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_256;
    }
  }

  private static final class Bits512 extends VectorAsciiClasses {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_512;
    }
  }
}
