package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Session 41: an unanchored expression whose matches all start with one character ({@code
 * JSESSIONID=(?<s>\S+)}) is searched over bytes by skipping to that character, eight bytes a step.
 * Over long texts where the character lies at every distance from a word's start, with near misses
 * ({@code JSESSION}), non-ASCII before, inside and after a match, inside larger arrays full of the
 * character: the byte search answers as the character search (which tries every position) and as
 * {@code java.util.regex}, group places included.
 */
class SimpleRegexLeadingSkipTest {
  private static final String[] PATTERNS = {
    "JSESSIONID=(?<s>\\S+)",
    "(?<s>J)SESSION",
    "(?:J)(S+)",
    "=(?<v>[^&\\s]*)",
    "J",
    "(?<a>(?<b>J)\\w*)",
    "x+(?<t>\\d)",
    "a{2,}(?<t>\\d+)"
  };

  @Test
  void skippingToTheLeadingCharacterAnswersAsTryingEveryPosition() {
    Random random = new Random(41);
    String[] pieces = {
      "J",
      "JSESSION",
      "JSESSIONID=",
      "JSESSIONID=AB12",
      "=",
      "&",
      " ",
      "a",
      "aa",
      "7",
      "\u007f",
      "x",
      "\u00e9",
      "\u20ac",
      "S",
      "SS",
      "q=1",
      "\t"
    };
    int matched = 0;
    for (String pattern : PATTERNS) {
      SimpleRegex simple = SimpleRegex.compile(pattern);
      assertThat(simple).as(pattern).isNotNull();
      for (int n = 0; n < 3000; n++) {
        StringBuilder text = new StringBuilder();
        for (int k = random.nextInt(30); k > 0; k--) {
          text.append(pieces[random.nextInt(pieces.length)]);
        }
        matched += compare(simple, pattern, text.toString(), random) ? 1 : 0;
      }
    }
    assertThat(matched).as("matches compared").isGreaterThan(5000);
  }

  /** Whether a match was compared; the byte search inside an array of the leading character. */
  private static boolean compare(SimpleRegex simple, String pattern, String text, Random random) {
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    int before = random.nextInt(9);
    byte[] inside = new byte[before + utf8.length + random.nextInt(9)];
    Arrays.fill(
        inside, (byte) pattern.charAt(pattern.indexOf('J') >= 0 ? pattern.indexOf('J') : 0));
    System.arraycopy(utf8, 0, inside, before, utf8.length);
    int byBytes = simple.find(inside, before, utf8.length);
    int[] groups = new int[2 * (Pattern.compile(pattern).matcher("").groupCount() + 1)];
    for (int g = 0; byBytes == SimpleRegex.MATCH && g < groups.length / 2; g++) {
      groups[2 * g] = simple.start(g);
      groups[2 * g + 1] = simple.end(g);
    }
    int byChars = simple.find(text);
    assertThat(byBytes).as(pattern + " over the bytes of '" + text + "'").isEqualTo(byChars);
    if (byChars == SimpleRegex.UNDECIDED) {
      return false;
    }
    Matcher matcher = Pattern.compile(pattern).matcher(text);
    boolean expected = matcher.find();
    assertThat(byChars == SimpleRegex.MATCH).as(pattern + " on '" + text + "'").isEqualTo(expected);
    if (!expected) {
      return false;
    }
    for (int g = 0; g <= matcher.groupCount(); g++) {
      if (g > 0) {
        assertThat(new int[] {groups[2 * g], groups[2 * g + 1]})
            .as(pattern + " group " + g + " over the bytes of '" + text + "'")
            .containsExactly(matcher.start(g), matcher.end(g));
      }
    }
    return true;
  }
}
