package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Long words and texts built of the word's own pieces (matches at the very ends, breakers, case
 * pairs): the byte matcher against the text matcher (review-c, session 32).
 */
class RawTermsPiecesTest {
  @Test
  void longWordsOnTheBytesAsOnTheText() {
    Random random = new Random(5);
    String alphabet = "aAkKsSzZ09_-./=:, \t\"'[]@#";
    for (int i = 0; i < 300_000; i++) {
      int wordLength = 1 + random.nextInt(20);
      StringBuilder w = new StringBuilder();
      for (int c = 0; c < wordLength; c++) {
        w.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      String word = w.toString();
      StringBuilder t = new StringBuilder();
      int length = random.nextInt(200);
      while (t.length() < length) {
        int pick = random.nextInt(4);
        if (pick == 0) {
          t.append(random.nextBoolean() ? word.toUpperCase() : word);
        } else if (pick == 1) {
          t.append(word, 0, random.nextInt(word.length() + 1));
        } else {
          t.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
      }
      String raw = t.toString();
      String pad = random.nextBoolean() ? "" : word;
      byte[] bytes = (pad + raw + pad).getBytes(StandardCharsets.US_ASCII);
      for (boolean phrase : new boolean[] {false, true}) {
        io.quarry.ql.exec.SearchTerm term = new io.quarry.ql.exec.SearchTerm(word, phrase);
        int held = RawTerms.OnBytes.of(term).matches(bytes, pad.length(), raw.length());
        if (held != RawTerms.UNDECIDED) {
          assertThat(held == 1)
              .as("%s (phrase %s) in [%s]", word, phrase, raw)
              .isEqualTo(new RawTerms.Text(raw).matches(term));
        }
      }
    }
  }
}
