package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The checks of {@link AsciiClassesTest}: classifiers give the masks and lower-cased bytes the
 * {@link Segmenter}'s own predicates give, byte by byte — every byte value below 0x80 at every
 * place of texts of lengths around every vector width (so also in the bytes only a text's last,
 * overlapping vector classifies), at an offset into a larger array, over masks and bytes left from
 * an earlier text, and random texts. Its {@code main} runs them for the scalar classifier and the
 * vector one of every width the CPU has (at 512 bits both the table permutes and the range
 * compares), in a JVM of its own: a JVM that loaded more than one width runs each with a species C2
 * does not see as a constant, far slower (as the server's {@code EqualsPassAgreement} says), which
 * the module's shared test JVM must not.
 */
final class AsciiClassesAgreement {
  private final List<AsciiClasses> classifiers;

  AsciiClassesAgreement(List<AsciiClasses> classifiers) {
    this.classifiers = List.copyOf(classifiers);
  }

  /**
   * Prints the classifier this JVM chose ({@code chosen: ...}); then, unless the argument is {@code
   * chosen}, runs every check over the scalar classifier and each width's (both ways at 512 bits)
   * and prints the classifiers checked ({@code agree: [...]}).
   */
  public static void main(String[] args) {
    System.out.println("chosen: " + AsciiClasses.CHOSEN);
    if (args.length > 0 && args[0].equals("chosen")) {
      return;
    }
    List<AsciiClasses> all = new ArrayList<>(List.of(new AsciiClasses.Scalar("test")));
    if (ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent()) {
      all.addAll(VectorAsciiClasses.widths());
    } else { // the vector classes are never loaded
      assertThat(AsciiClasses.CHOSEN).hasToString("scalar (no jdk.incubator.vector)");
    }
    AsciiClassesAgreement agreement = new AsciiClassesAgreement(all);
    agreement.everyByteValueAtEveryPlace();
    agreement.randomTextsAtRandomOffsets();
    System.out.println("agree: " + all);
  }

  void everyByteValueAtEveryPlace() {
    int[] lengths = {0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 130};
    for (AsciiClasses classes : classifiers) {
      for (int length : lengths) {
        for (int place = 0; place < Math.max(1, length); place++) {
          for (int value = 0; value < 0x80; value++) {
            byte[] text = new byte[length + 5];
            Arrays.fill(text, (byte) 'k');
            if (length > 0) {
              text[2 + place] = (byte) value;
            }
            assertClassified(classes, text, 2, length);
          }
        }
      }
    }
  }

  void randomTextsAtRandomOffsets() {
    Random random = new Random(5);
    for (AsciiClasses classes : classifiers) {
      for (int round = 0; round < 3_000; round++) {
        int length = random.nextInt(random.nextBoolean() ? 70 : 400);
        int offset = random.nextInt(9);
        byte[] text = new byte[offset + length + random.nextInt(3)];
        for (int i = 0; i < text.length; i++) {
          text[i] = (byte) random.nextInt(0x80);
        }
        assertClassified(classes, text, offset, length);
      }
    }
  }

  /** The masks and lower-cased bytes of {@code text[offset, offset + length)} by the definition. */
  private static void assertClassified(AsciiClasses classes, byte[] text, int offset, int length) {
    int words = AsciiClasses.words(length);
    // stale words and bytes from an earlier, longer text: the classifier must overwrite them
    long[] majors = filled(words + 2);
    long[] minors = filled(words + 2);
    long[] quotes = filled(words + 2);
    byte[] lower = new byte[length + 3];
    Arrays.fill(lower, (byte) '?');
    classes.classify(text, offset, length, lower, majors, minors, quotes);
    long[] wantMajors = new long[words];
    long[] wantMinors = new long[words];
    long[] wantQuotes = new long[words];
    byte[] wantLower = new byte[length];
    for (int i = 0; i < words * 64; i++) {
      boolean inText = i < length;
      char c = inText ? (char) text[offset + i] : ' ';
      long bit = 1L << i;
      wantMajors[i >>> 6] |= !inText || Segmenter.isMajorBreaker(c) ? bit : 0;
      wantMinors[i >>> 6] |= inText && Segmenter.isMinorBreaker(c) ? bit : 0;
      wantQuotes[i >>> 6] |= inText && c == '"' ? bit : 0;
      if (inText) {
        wantLower[i] = (byte) Character.toLowerCase(c);
      }
    }
    if (Arrays.equals(majors, 0, words, wantMajors, 0, words)
        && Arrays.equals(minors, 0, words, wantMinors, 0, words)
        && Arrays.equals(quotes, 0, words, wantQuotes, 0, words)
        && Arrays.equals(lower, 0, length, wantLower, 0, length)) {
      return; // the checks below, a byte at a time, only to say where it differs
    }
    for (int i = 0; i < words * 64; i++) {
      boolean inText = i < length;
      char c = inText ? (char) text[offset + i] : ' ';
      String where = classes + " length " + length + " byte " + i + " (" + (int) c + ")";
      assertThat(bit(majors, i))
          .as("major, " + where)
          .isEqualTo(!inText || Segmenter.isMajorBreaker(c));
      assertThat(bit(minors, i))
          .as("minor, " + where)
          .isEqualTo(inText && Segmenter.isMinorBreaker(c));
      assertThat(bit(quotes, i)).as("quote, " + where).isEqualTo(inText && c == '"');
      if (inText) {
        assertThat((char) lower[i]).as("lower, " + where).isEqualTo(Character.toLowerCase(c));
      }
    }
  }

  private static long[] filled(int words) {
    long[] mask = new long[words];
    Arrays.fill(mask, 0x5555_5555_5555_5555L);
    return mask;
  }

  private static boolean bit(long[] words, int i) {
    return (words[i >>> 6] >>> i & 1) != 0;
  }
}
