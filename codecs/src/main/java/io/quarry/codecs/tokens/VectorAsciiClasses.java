package io.quarry.codecs.tokens;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

/**
 * {@link AsciiClasses} with the Vector API: a vector of bytes (the widest the CPU has, at most 64
 * bytes, one bit each in a {@code long}) lower-cased and stored, and each byte given its kind —
 * major breaker {@code 09-0D 1C-22 26-2C 3B-3F 5B 5D 7B-7D} (white space and {@code [ ] < > ( ) { }
 * | ! ; , ' " * & ? + =}), minor breaker {@code 23-25 2D-2F 3A 40 5C 5F} ({@code / : @ . - $ # % \
 * _}), the quote {@code 22}, an upper-case letter — each mask moved to a {@code long} once per
 * vector. How a byte gets its kind depends on the width: 128- and 256-bit vectors compare it with
 * the ranges above; 512-bit vectors look it up in a table of the kinds of ASCII by two byte
 * permutes (one per half), when the CPU has AVX512_VBMI ({@link #vbmi}: HotSpot compiles a 512-bit
 * byte permute to {@code vpermb} only then, and without it runs the permute in Java code, boxing
 * every vector), else compare it with the ranges as the narrower widths do. A text's last partial
 * vector is the vector ending at its last byte, overlapping the one before (its bits shifted past
 * those already set); a text shorter than a vector goes byte by byte. Loaded only when the JVM has
 * {@code jdk.incubator.vector}.
 *
 * <p>One subclass per width and way (two at 512 bits), each returning one of {@link ByteVector}'s
 * static species, as the server's {@code sourcetype.VectorEqualsPass} (which says why: HotSpot
 * compiles the Vector API to SIMD instructions only for a species it knows as a constant, and a JVM
 * loads one width).
 */
abstract class VectorAsciiClasses extends AsciiClasses {
  private VectorAsciiClasses() {}

  /** The CPU's widest byte vector, at most 512 bits (the mask must fit a long). */
  private static VectorSpecies<Byte> preferredSpecies() {
    return ByteVector.SPECIES_PREFERRED.length() <= Long.SIZE
        ? ByteVector.SPECIES_PREFERRED
        : ByteVector.SPECIES_512;
  }

  /**
   * The classifier of the CPU's widest vectors when they hold at least 16 bytes, else null; at 512
   * bits the table permutes only when {@link #vbmi}.
   */
  static AsciiClasses ifWider() {
    VectorSpecies<Byte> preferred = preferredSpecies();
    return preferred.length() >= 16 ? of(preferred, vbmi()) : null;
  }

  /**
   * The classifier of {@code species}' vectors: 128, 256 or 512 bits; at 512 the table permutes
   * when {@code permutes}, else the range compares (narrower widths always compare).
   */
  static VectorAsciiClasses of(VectorSpecies<Byte> species, boolean permutes) {
    return switch (species.vectorBitSize()) {
      case 128 -> new Bits128();
      case 256 -> new Bits256();
      case 512 -> permutes ? new Bits512Permutes() : new Bits512Compares();
      default -> throw new IllegalArgumentException("no classifier of " + species);
    };
  }

  /**
   * The classifier of every width from 128 bits to the CPU's widest (at most 512), both ways at 512
   * bits (the table permutes run in Java code, slowly, on a CPU without VBMI), for tests.
   */
  static List<VectorAsciiClasses> widths() {
    int widest = preferredSpecies().vectorBitSize();
    List<VectorAsciiClasses> all = new ArrayList<>();
    for (VectorSpecies<Byte> species :
        List.of(ByteVector.SPECIES_128, ByteVector.SPECIES_256, ByteVector.SPECIES_512)) {
      if (species.vectorBitSize() <= widest) {
        all.add(of(species, false));
        if (species.vectorBitSize() == 512) {
          all.add(of(species, true));
        }
      }
    }
    return all;
  }

  /** The system property that forces {@link #vbmi}: {@code true} or {@code false}. */
  static final String VBMI_PROPERTY = "quarry.tokens.vbmi";

  /**
   * Whether 512-bit vectors classify by table permutes: the system property {@value #VBMI_PROPERTY}
   * when it is {@code true} or {@code false} (for tests), else whether the CPU has AVX512_VBMI —
   * the {@code avx512vbmi} flag in the {@code flags} line of Linux's {@code /proc/cpuinfo}; a file
   * that cannot be read or has no such flag (another OS, say) counts as without. Asked, not held in
   * a static field, for the reason {@link #preferredSpecies} is ({@link AsciiClasses#CHOSEN} may be
   * chosen while this class is initialized).
   */
  static boolean vbmi() {
    String forced = System.getProperty(VBMI_PROPERTY);
    if ("true".equals(forced) || "false".equals(forced)) {
      return Boolean.parseBoolean(forced);
    }
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      return lines
          .filter(line -> line.startsWith("flags"))
          .findFirst()
          .map(line -> Arrays.asList(line.substring(line.indexOf(':') + 1).trim().split("\\s+")))
          .map(flags -> flags.contains("avx512vbmi"))
          .orElse(false);
    } catch (IOException | UncheckedIOException | SecurityException e) {
      return false;
    }
  }

  /** The species this classifier reads with: a constant of {@link ByteVector}. */
  abstract VectorSpecies<Byte> species();

  /** Whether a byte's kind comes from the table by permutes ({@link #kinds64}): 512 bits only. */
  abstract boolean permutes();

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
    boolean permutes = permutes();
    for (; i + lanes <= length; i += lanes) {
      vector(species, permutes, text, offset, i, lower, majors, minors, quotes, i);
    }
    if (i < length) {
      if (length >= lanes) {
        vector(species, permutes, text, offset, length - lanes, lower, majors, minors, quotes, i);
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
      boolean permutes,
      byte[] text,
      int offset,
      int from,
      byte[] lower,
      long[] majors,
      long[] minors,
      long[] quotes,
      int at) {
    ByteVector v = ByteVector.fromArray(species, text, offset + from);
    ByteVector kinds = permutes ? kinds64(v) : kinds(v);
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
   * of its half of ASCII (one permute each), a byte from 0x80 none. Only with AVX512_VBMI ({@link
   * #vbmi}).
   */
  private static ByteVector kinds64(ByteVector v) {
    VectorSpecies<Byte> species = ByteVector.SPECIES_512;
    ByteVector index = v.and((byte) 0x3F);
    ByteVector low = index.selectFrom(ByteVector.fromArray(species, KINDS, 0));
    ByteVector high = index.selectFrom(ByteVector.fromArray(species, KINDS, 0x40));
    return low.blend(high, v.compare(VectorOperators.GE, (byte) 0x40))
        .blend((byte) 0, v.compare(VectorOperators.LT, (byte) 0));
  }

  /**
   * The kinds of a vector's bytes by compares with the breakers' ranges: 128 and 256 bits, and 512
   * without VBMI.
   */
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

  /** {@code vector 256-bit compares}, {@code vector 512-bit permutes}. */
  @Override
  public final String toString() {
    return "vector " + species().vectorBitSize() + "-bit " + (permutes() ? "permutes" : "compares");
  }

  private static final class Bits128 extends VectorAsciiClasses {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_128;
    }

    @Override
    boolean permutes() {
      return false;
    }
  }

  private static final class Bits256 extends VectorAsciiClasses {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_256;
    }

    @Override
    boolean permutes() {
      return false;
    }
  }

  /** 512 bits by table permutes: the CPU has AVX512_VBMI. */
  private static final class Bits512Permutes extends VectorAsciiClasses {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_512;
    }

    @Override
    boolean permutes() {
      return true;
    }
  }

  /** 512 bits by range compares: AVX-512 without VBMI. */
  private static final class Bits512Compares extends VectorAsciiClasses {
    @Override
    VectorSpecies<Byte> species() {
      return ByteVector.SPECIES_512;
    }

    @Override
    boolean permutes() {
      return false;
    }
  }
}
