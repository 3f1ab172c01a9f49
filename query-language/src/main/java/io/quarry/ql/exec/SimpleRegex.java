package io.quarry.ql.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

/**
 * A fast path for the regular expressions most {@code rex} extractions use, such as {@code
 * ^(?<ip>\S+)} or {@code status=(?<status>\d{3}) }: a sequence of literals and character classes,
 * each with a greedy quantifier, and capturing groups around them, that never needs to backtrack.
 * It answers exactly as {@code java.util.regex} would (the regex stays the definition; {@code
 * SimpleRegexTest} compares the two over random patterns and texts), in one pass over the text with
 * no call outside this class.
 *
 * <p>Why: {@code java.util.regex} walks a tree of node objects whose calls the JIT compiles for the
 * node and text types it has seen in the whole JVM; after an ingest ran other expressions on every
 * event, a search-time {@code rex} over 10M events ran its matcher through megamorphic calls and
 * spent a quarter of its CPU there.
 *
 * <p><b>The subset.</b> An optional leading {@code ^}; literal characters (plain or escaped, ASCII
 * only); {@code .}, {@code \d \D \s \S \w \W} and bracket classes of ASCII members (ranges,
 * negation, those escapes); the quantifiers {@code * + ? {n} {n,} {n,m}}, greedy only, on a literal
 * or class; capturing groups, named or not, and non-capturing ones, never quantified. Anything else
 * ({@code |}, {@code $}, lazy or possessive quantifiers, flags, lookaround, back references, word
 * boundaries, non-ASCII) is left to {@code java.util.regex}, and so is an expression where a
 * quantified element could give back characters the rest of the expression needs ({@code \S+\d}):
 * {@link #compile} accepts a variable element only when no character it matches can start what
 * follows it, so the longest run is the only one that can succeed, as greedy backtracking would
 * find.
 *
 * <p>The text is matched as ASCII: a character above 127 met while matching makes {@link #find}
 * answer {@link #UNDECIDED}, and the caller asks {@code java.util.regex} (whose classes treat such
 * characters by Unicode rules and code points). A text held as bytes (a decoded journal block, an
 * ASCII value) is matched in them, a byte a character ({@link #find(byte[], int, int)}). Not
 * thread-safe: one per operator.
 */
final class SimpleRegex {
  static final int NO_MATCH = 0;
  static final int MATCH = 1;
  static final int UNDECIDED = -1;

  /** One step of the expression: a class repeated [min, max] times, or a group boundary. */
  record Step(long low, long high, int min, int max, int group, boolean groupStart) {
    boolean isMark() {
      return group >= 0;
    }
  }

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long HIGH_BITS = 0x8080_8080_8080_8080L;
  private static final long NO_FLOOR = -1;

  private final boolean anchored;
  // The steps as flat arrays, read in the match loops (no Step object per step and character):
  private final long[] lows; // a class's members below 64, a bit each
  private final long[] highs; // its members 64 to 127 (c's bit: high >>> c, a shift takes c % 64)
  private final int[] mins;
  private final int[] maxes;
  private final int[] marks; // 0: a class; g + 1: group g starts here; -(g + 1): it ends here
  // Per class: its floor in every byte of a word, where the floor is the least f such that every
  // character from f to 127 is a member ({@code \S}: '!'), or NO_FLOOR when 127 is not one
  private final long[] floors;
  // The one character every match starts with (the first class has it as its only member and
  // takes at least one), or -1: an unanchored search over bytes skips to where it lies
  private final int leading;
  private final int[] starts;
  private final int[] ends;

  SimpleRegex(boolean anchored, List<Step> steps, int groups) {
    this.anchored = anchored;
    int count = steps.size();
    this.lows = new long[count];
    this.highs = new long[count];
    this.mins = new int[count];
    this.maxes = new int[count];
    this.marks = new int[count];
    this.floors = new long[count];
    for (int i = 0; i < count; i++) {
      Step step = steps.get(i);
      lows[i] = step.low();
      highs[i] = step.high();
      mins[i] = step.min();
      maxes[i] = step.max();
      marks[i] = !step.isMark() ? 0 : step.groupStart() ? step.group() + 1 : -step.group() - 1;
      floors[i] = step.isMark() ? NO_FLOOR : floor(step.low(), step.high());
    }
    this.starts = new int[groups + 1];
    this.ends = new int[groups + 1];
    this.leading = leading(steps);
  }

  /** The character a match must start with ({@link #leading}), or -1. */
  private static int leading(List<Step> steps) {
    for (Step step : steps) {
      if (!step.isMark()) {
        boolean one = Long.bitCount(step.low()) + Long.bitCount(step.high()) == 1;
        if (!one || step.min() < 1) {
          return -1;
        }
        return step.low() != 0
            ? Long.numberOfTrailingZeros(step.low())
            : 64 + Long.numberOfTrailingZeros(step.high());
      }
    }
    return -1;
  }

  /**
   * The class's floor ({@link #floors}) in each byte of a word, or {@link #NO_FLOOR}; a floor of 0
   * is taken as 1 (a zero byte then goes the byte loop's way, which answers it alike).
   */
  private static long floor(long low, long high) {
    int floor = 128;
    while (floor > 0 && ((floor - 1 < 64 ? low : high) >>> (floor - 1) & 1) != 0) {
      floor--;
    }
    return floor == 128 ? NO_FLOOR : Math.max(floor, 1) * 0x0101_0101_0101_0101L;
  }

  /** The fast path for {@code regex}, or null when it is outside the subset (see the class doc). */
  static SimpleRegex compile(String regex) {
    try {
      return new SimpleRegexParser(regex).parse();
    } catch (IllegalArgumentException outside) {
      return null;
    }
  }

  /**
   * Looks for the first match in {@code text}, as {@code Matcher.find} from the start would.
   *
   * @return {@link #MATCH} (then {@link #start}/{@link #end} give the groups), {@link #NO_MATCH},
   *     or {@link #UNDECIDED} when a non-ASCII character was met
   */
  int find(CharSequence text) {
    int length = text.length();
    int last = anchored ? 0 : length;
    for (int from = 0; from <= last; from++) {
      int found = matchAt(text, from, length);
      if (found != NO_MATCH) {
        return found;
      }
    }
    return NO_MATCH;
  }

  /**
   * As {@link #find(CharSequence)} over the text {@code bytes[offset, offset + length)}, a byte
   * each character: a byte above 127 (a character outside ASCII, or a UTF-8 byte of one) answers
   * {@link #UNDECIDED} as such a character does there. The groups' places are counted from {@code
   * offset}. The loop of the block scan's {@code rex}: no {@code CharSequence} call and bounds
   * check per character, and a class holding every character from some floor to 127 ({@code \S})
   * passes eight such bytes a step (session 34: 23 → 15 ns a line for {@code ^(?<ip>\S+)} over
   * access-log lines), the word that stops it read to its first byte outside (session 38), not byte
   * by byte.
   */
  int find(byte[] bytes, int offset, int length) {
    int end = offset + length;
    if (!anchored && leading >= 0) {
      return findLeading(bytes, offset, end);
    }
    int last = anchored ? offset : end;
    for (int from = offset; from <= last; from++) {
      int found = matchAt(bytes, from, offset, end);
      if (found != NO_MATCH) {
        return found;
      }
    }
    return NO_MATCH;
  }

  /**
   * {@link #find(byte[], int, int)} for an unanchored expression whose matches all start with the
   * character {@link #leading}: a match is tried only where that byte lies, eight bytes a step to
   * it (session 41: {@code JSESSIONID=(?<s>\S+)} tried a match at every byte of every line, ~57% of
   * the search's CPU). The answer is the byte-by-byte search's: a start at any other ASCII byte
   * fails at once (the first class does not take it), and the first byte above 127 met before a
   * match answers {@link #UNDECIDED}, as a match tried there would.
   */
  private int findLeading(byte[] bytes, int offset, int end) {
    long pattern = leading * 0x0101_0101_0101_0101L;
    int from = offset;
    while (true) {
      from = nextLeading(bytes, from, end, pattern);
      if (from >= end) {
        return NO_MATCH; // an empty rest: the first class takes at least one character
      }
      if (bytes[from] < 0) {
        return UNDECIDED;
      }
      int found = matchAt(bytes, from, offset, end);
      if (found != NO_MATCH) {
        return found;
      }
      from++;
    }
  }

  /**
   * The first index from {@code at} before {@code end} whose byte is {@link #leading} (each byte of
   * {@code pattern}) or above 127, else {@code end}. A word's flags: a byte of {@code word ^
   * pattern} that is zero (the lowest such flag exact: a borrow only follows a zero byte), a byte
   * of {@code word} whose high bit is set.
   */
  private int nextLeading(byte[] bytes, int at, int end, long pattern) {
    for (; at + Long.BYTES <= end; at += Long.BYTES) {
      long word = (long) LONGS.get(bytes, at);
      long x = word ^ pattern;
      long hits = ((x - 0x0101_0101_0101_0101L) & ~x | word) & HIGH_BITS;
      if (hits != 0) {
        return at + (Long.numberOfTrailingZeros(hits) >>> 3);
      }
    }
    for (; at < end; at++) {
      int c = bytes[at];
      if (c < 0 || c == leading) {
        return at;
      }
    }
    return end;
  }

  /** Where group {@code group} (numbered as {@code java.util.regex} numbers them) began. */
  int start(int group) {
    return starts[group];
  }

  int end(int group) {
    return ends[group];
  }

  private int matchAt(CharSequence text, int from, int length) {
    int at = from;
    for (int s = 0; s < marks.length; s++) {
      if (marks[s] != 0) {
        mark(s, at);
        continue;
      }
      int limit = maxes[s] >= length - at ? length : at + maxes[s];
      int begin = at;
      long low = lows[s];
      long high = highs[s];
      for (; at < limit; at++) {
        char c = text.charAt(at);
        if (c > 127) {
          return UNDECIDED;
        }
        if (((c < 64 ? low : high) >>> c & 1) == 0) {
          break;
        }
      }
      if (at - begin < mins[s]) {
        return NO_MATCH;
      }
    }
    return MATCH;
  }

  /** As {@link #matchAt(CharSequence, int, int)} over bytes; groups placed from {@code offset}. */
  private int matchAt(byte[] bytes, int from, int offset, int end) {
    int at = from;
    for (int s = 0; s < marks.length; s++) {
      if (marks[s] != 0) {
        mark(s, at - offset);
        continue;
      }
      int limit = maxes[s] >= end - at ? end : at + maxes[s];
      int begin = at;
      long low = lows[s];
      long high = highs[s];
      if (floors[s] != NO_FLOOR) { // eight bytes a step while all are in [floor, 127]
        long below = floors[s];
        for (; at + Long.BYTES <= limit; at += Long.BYTES) {
          long word = (long) LONGS.get(bytes, at);
          long stops = (word | (word - below) & ~word) & HIGH_BITS;
          if (stops != 0) {
            // the lowest flag is the first byte above 127 or below the floor (a borrow only
            // follows a byte below): every byte before it is a member, the byte loop starts there
            at += Long.numberOfTrailingZeros(stops) >>> 3;
            break;
          }
        }
      }
      for (; at < limit; at++) {
        int c = bytes[at];
        if (c < 0) {
          return UNDECIDED;
        }
        if (((c < 64 ? low : high) >>> c & 1) == 0) {
          break;
        }
      }
      if (at - begin < mins[s]) {
        return NO_MATCH;
      }
    }
    return MATCH;
  }

  private void mark(int s, int at) {
    if (marks[s] > 0) {
      starts[marks[s] - 1] = at;
    } else {
      ends[-marks[s] - 1] = at;
    }
  }
}
