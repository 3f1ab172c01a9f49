package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.Test;

/**
 * The simple-regex fast path against its definition, {@code java.util.regex}: wherever it answers,
 * whether there is a match and every group's bounds are the same.
 */
class SimpleRegexTest {
  private static final List<String> LINES =
      List.of(
          "194.224.135.152 - - [07/Jan/2026:00:00:00 +0000] \"GET /account/login?JSESSIONID=SD7SL5"
              + " HTTP 1.1\" 200 1736 \"http://buttercup-shopping.com/cart.do\" \"Mozilla/5.0\"",
          "91.153.180.30 - bob [07/Jan/2026:00:00:01 +0000] \"POST /cart.do HTTP/1.1\" 503 - \"-\" \"-\"",
          "Jun 14 15:16:01 combo sshd(pam_unix)[19939]: authentication failure; uid=0 rhost=218.188.2.4",
          "2015-10-18 18:01:47,978 INFO [main] org.apache.hadoop.mapreduce: status=ok user=alice",
          "caf\u00e9 10.0.0.1 user=\u00e9t\u00e9 status=200",
          "",
          " leading space",
          "a=1 b=22 c=333 d=\"quoted value\" e=[x]");

  @Test
  void realisticPatternsTakeTheFastPathAndAgree() {
    List<String> patterns =
        List.of(
            "^(?<ip>\\S+)",
            "^(?<ip>\\S+) \\S+ (?<user>\\S+) \\[(?<time>[^\\]]+)\\]",
            "\"(?<method>[A-Z]+) (?<path>[^ ?\"]+)",
            "status=(?<status>\\d+)",
            " (?<status>\\d{3}) (?<bytes>\\d+|-)".replace("|-", ""),
            "user=(?<user>\\w+)",
            "rhost=(?<rhost>[0-9.]+)",
            "(?<pid>\\d+)\\]:",
            "d=\"(?<d>[^\"]*)\"",
            "^(?<date>\\d{4}-\\d{2}-\\d{2}) (?<clock>[\\d:,]+) (?<level>[A-Z]+)",
            "(?:JSESSIONID=)(?<session>[A-Z0-9]+)");
    for (String pattern : patterns) {
      assertThat(SimpleRegex.compile(pattern)).as(pattern).isNotNull();
      for (String line : LINES) {
        compare(pattern, line);
      }
    }
  }

  @Test
  void expressionsOutsideTheSubsetAreLeftToJavaRegex() {
    for (String pattern :
        List.of(
            "a|b",
            "(?i)get",
            "a+?",
            "a*+",
            "(ab)+",
            "(?<x>\\d)?",
            "\\bword",
            "\\S+\\d", // \S+ would have to give a digit back
            "a?a",
            "[a-z]*x",
            "(?=a)b",
            "(?<!a)b",
            "x$",
            "a^",
            "\\p{Alpha}",
            "(\\d)\\1",
            "[a[b]]",
            "[a&&b]",
            "caf\u00e9",
            "[a-c-e]",
            "\\Qa\\E")) {
      assertThat(SimpleRegex.compile(pattern)).as(pattern).isNull();
    }
  }

  /** Random patterns from the subset's pieces (and some outside it) over random and real texts. */
  @Test
  void randomPatternsAgreeWithJavaRegexWhereverTheyAnswer() {
    Random random = new Random(20261124);
    String[] elements = {
      "a", "b", "1", " ", "-", "=", "\\.", "\\[", "\\]", "\"", "/", ":", ".", "\\d", "\\D", "\\s",
      "\\S", "\\w", "\\W", "[a-c]", "[^ \"]", "[0-9.]", "[^\\]]", "[-a]", "[a-]", "[\\d.]", "[^a1]",
      "\\t", "_", "x"
    };
    String[] quantifiers = {"", "", "", "*", "+", "?", "{2}", "{1,3}", "{2,}", "{0,1}", "+?", "*+"};
    String textAlphabet = "ab1 2-.=\"[]:/\tz_x\u00e9";
    int compiled = 0;
    int matched = 0;
    for (int n = 0; n < 4000; n++) {
      List<String> parts = new ArrayList<>();
      for (int k = 1 + random.nextInt(5); k > 0; k--) {
        parts.add(
            elements[random.nextInt(elements.length)]
                + quantifiers[random.nextInt(quantifiers.length)]);
      }
      if (random.nextBoolean()) {
        int from = random.nextInt(parts.size());
        int to = from + random.nextInt(parts.size() - from);
        String open = random.nextBoolean() ? "(?<g>" : random.nextBoolean() ? "(" : "(?:";
        parts.set(from, open + parts.get(from));
        parts.set(to, parts.get(to) + ")");
      }
      String pattern = (random.nextInt(3) == 0 ? "^" : "") + String.join("", parts);
      try {
        Pattern.compile(pattern);
      } catch (PatternSyntaxException invalid) {
        continue;
      }
      if (SimpleRegex.compile(pattern) == null) {
        continue;
      }
      compiled++;
      for (int t = 0; t < 30; t++) {
        StringBuilder text = new StringBuilder();
        for (int length = random.nextInt(16); length > 0; length--) {
          text.append(textAlphabet.charAt(random.nextInt(textAlphabet.length())));
        }
        matched += compare(pattern, text.toString()) ? 1 : 0;
      }
      for (String line : LINES) {
        matched += compare(pattern, line) ? 1 : 0;
      }
    }
    assertThat(compiled).as("patterns in the subset").isGreaterThan(500);
    assertThat(matched).as("matches compared group by group").isGreaterThan(5000);
  }

  /**
   * Asserts both engines agree on {@code text}, and the matcher over the text's UTF-8 bytes (inside
   * a larger array, after other bytes that must not count) agrees with both; returns whether there
   * was a match to compare.
   */
  private static boolean compare(String pattern, String text) {
    SimpleRegex simple = SimpleRegex.compile(pattern);
    byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
    byte[] inside = new byte[utf8.length + 7];
    Arrays.fill(inside, (byte) 'a'); // a word byte before and after: the pattern may take it
    System.arraycopy(utf8, 0, inside, 3, utf8.length);
    int byBytes = simple.find(inside, 3, utf8.length);
    int[] groupsByBytes = new int[2 * (Pattern.compile(pattern).matcher("").groupCount() + 1)];
    for (int group = 0; byBytes == SimpleRegex.MATCH && group < groupsByBytes.length / 2; group++) {
      groupsByBytes[2 * group] = simple.start(group);
      groupsByBytes[2 * group + 1] = simple.end(group);
    }
    int found = simple.find(text);
    assertThat(byBytes).as(pattern + " over the bytes of '" + text + "'").isEqualTo(found);
    if (found == SimpleRegex.UNDECIDED) {
      assertThat(text.chars().anyMatch(c -> c > 127)).as(pattern + " on " + text).isTrue();
      return false;
    }
    Matcher matcher = Pattern.compile(pattern).matcher(text);
    boolean expected = matcher.find();
    assertThat(found == SimpleRegex.MATCH).as(pattern + " on '" + text + "'").isEqualTo(expected);
    if (!expected) {
      return false;
    }
    for (int group = 1; group <= matcher.groupCount(); group++) {
      assertThat(new int[] {simple.start(group), simple.end(group)})
          .as(pattern + " group " + group + " on '" + text + "'")
          .containsExactly(matcher.start(group), matcher.end(group));
      assertThat(new int[] {groupsByBytes[2 * group], groupsByBytes[2 * group + 1]})
          .as(pattern + " group " + group + " over the bytes of '" + text + "'")
          .containsExactly(matcher.start(group), matcher.end(group));
    }
    return true;
  }
}
