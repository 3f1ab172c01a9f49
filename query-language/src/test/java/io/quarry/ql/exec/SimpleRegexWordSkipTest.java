package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Review (session 34): the byte loop's word skip against {@code java.util.regex} on long texts
 * (runs of eight and more), classes whose floor is low or high, DEL and NUL, non-ASCII in the
 * middle of ASCII, every offset in a larger array filled with class members on both sides.
 */
class SimpleRegexWordSkipTest {
  @Test
  void wordSkipsAgreeOnLongTexts() {
    Random random = new Random(34);
    String[] classes = {
      "\\S",
      "[^ ]",
      "[^\"]",
      ".",
      "\\D",
      "\\W",
      "[^a]",
      "[!-~]",
      "[!-\\x7f]",
      "[\\x00-\\x7f]",
      "[^\\x00]",
      "[^z]",
      "[ -\\x7f]",
      "(?i)[^A]",
      "[^\\]]",
      "[^,;]"
    };
    String[] quantifiers = {"+", "*", "{3,9}", "{8}", "{9,}", "{0,17}", ""};
    String alphabet = "aAbz ,;\"]\t\u007f\u0000~!\u00e9\u20ac0123456789.:-/[";
    int matched = 0;
    for (int n = 0; n < 3000; n++) {
      StringBuilder p = new StringBuilder(random.nextBoolean() ? "^" : "");
      for (int k = 1 + random.nextInt(3); k > 0; k--) {
        String cls = classes[random.nextInt(classes.length)];
        String q = quantifiers[random.nextInt(quantifiers.length)];
        p.append(k == 2 ? "(?<g>" + cls + q + ")" : cls + q);
        if (random.nextInt(3) == 0) {
          p.append(random.nextBoolean() ? " " : ",");
        }
      }
      String pattern = p.toString();
      SimpleRegex simple;
      try {
        Pattern.compile(pattern);
        simple = SimpleRegex.compile(pattern);
      } catch (RuntimeException e) {
        continue;
      }
      if (simple == null) {
        continue;
      }
      Pattern java = Pattern.compile(pattern);
      for (int t = 0; t < 20; t++) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(70);
        boolean runs = random.nextBoolean();
        for (int i = 0; i < length; i++) {
          text.append(
              runs && random.nextInt(10) != 0
                  ? (char) ('#' + random.nextInt(90))
                  : alphabet.charAt(random.nextInt(alphabet.length())));
        }
        String s = text.toString();
        int found = simple.find(s);
        int[] charGroups = groups(simple, java, found);
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        for (int pad = 0; pad < 9; pad += 4) {
          byte[] inside = new byte[utf8.length + 2 * pad + 1];
          Arrays.fill(inside, (byte) '#');
          System.arraycopy(utf8, 0, inside, pad, utf8.length);
          int byBytes = simple.find(inside, pad, utf8.length);
          assertThat(byBytes).as(pattern + " on bytes of '" + s + "'").isEqualTo(found);
          assertThat(groups(simple, java, byBytes))
              .as(pattern + " groups on bytes of '" + s + "'")
              .isEqualTo(charGroups);
        }
        if (found == SimpleRegex.UNDECIDED) {
          continue;
        }
        Matcher m = java.matcher(s);
        boolean javaFound = m.find();
        assertThat(found == SimpleRegex.MATCH).as(pattern + " on '" + s + "'").isEqualTo(javaFound);
        if (javaFound) {
          matched++;
          for (int g = 1; g <= m.groupCount(); g++) {
            assertThat(new int[] {charGroups[2 * g], charGroups[2 * g + 1]})
                .as(pattern + " group " + g + " on '" + s + "'")
                .containsExactly(m.start(g), m.end(g));
          }
        }
      }
    }
    assertThat(matched).isGreaterThan(2000);
  }

  private static int[] groups(SimpleRegex simple, Pattern java, int found) {
    int count = java.matcher("").groupCount() + 1;
    int[] groups = new int[2 * count];
    for (int g = 1; found == SimpleRegex.MATCH && g < count; g++) {
      groups[2 * g] = simple.start(g);
      groups[2 * g + 1] = simple.end(g);
    }
    return groups;
  }
}
