package io.quarry.ql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.plugin.api.data.ByteSlice;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@code like} and {@code match} answered over a text's UTF-8 bytes ({@link BytesTest}) against the
 * same functions over the decoded text ({@code java.util.regex}, the definition): random texts with
 * non-ASCII characters, random {@code like} patterns, regexes of {@link SimpleRegex}'s subset. The
 * bytes must answer as the text does wherever they answer, and answer every ASCII text.
 */
class BytesTestTest {
  private final RegexFunctions functions = new RegexFunctions(() -> () -> false);

  @Test
  void likeOverBytesAnswersAsOverTheText() {
    Random random = new Random(7);
    for (int round = 0; round < 3000; round++) {
      String pattern = random(random, "ab%_é.", random.nextInt(7));
      BytesTest like = (BytesTest) functions.liker(pattern);
      for (int t = 0; t < 20; t++) {
        String text = random(random, round % 2 == 0 ? "ab.c" : "ab.é\n", random.nextInt(9));
        check(like, text, pattern);
      }
    }
  }

  @Test
  void matchOverBytesAnswersAsOverTheText() {
    Random random = new Random(8);
    List<String> regexes =
        List.of(
            "a+b", "^ab", "\\d{2}", "[a-c]+x?", "b.a", "^\\S+\\s", "x", "a*", "ab", "b a", "1x");
    for (String regex : regexes) {
      BoundFunction bound = functions.matcher(regex);
      assertThat(bound).as(regex).isInstanceOf(BytesTest.class);
      for (int t = 0; t < 3000; t++) {
        check((BytesTest) bound, random(random, "abcx1 é", random.nextInt(10)), regex);
      }
    }
    assertThat(functions.matcher("a|b")).as("outside the subset").isNotInstanceOf(BytesTest.class);
  }

  private static void check(BytesTest test, String text, String pattern) {
    byte[] utf8 = ("<" + text + ">").getBytes(StandardCharsets.UTF_8); // a slice within an array
    ByteSlice slice = new ByteSlice();
    slice.reset(utf8, 1, utf8.length - 2);
    Boolean overBytes = test.test(slice);
    Object overText = test.apply(text);
    if (overBytes != null) {
      assertThat(overBytes).as("%s over \"%s\"", pattern, text).isEqualTo(overText);
    } else {
      assertThat(text.chars().allMatch(c -> c < 128))
          .as("%s over \"%s\": undecided only over non-ASCII text", pattern, text)
          .isFalse();
    }
  }

  private static String random(Random random, String alphabet, int length) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
