package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RawTerms.Text}'s shortcut for a word an event lacks: it says "surely absent" only where
 * the lower case of the text does not hold the word — never for a character past ASCII whose lower
 * case is ASCII (the Kelvin sign's is {@code k}) or longer ({@code İ}).
 */
class RawTermsTest {
  @Test
  void aWordInAnyCaseOrBehindAWideCharacterIsNotSurelyAbsent() {
    assertThat(RawTerms.Text.surelyAbsent("GET /x?JSESSIONID=RARETERM HTTP", "rareterm")).isFalse();
    assertThat(RawTerms.Text.surelyAbsent("GET /x?JSESSIONID=RareTerm", "rareterm")).isFalse();
    assertThat(RawTerms.Text.surelyAbsent("GET /x?JSESSIONID=RARETER", "rareterm")).isTrue();
    assertThat(RawTerms.Text.surelyAbsent("RARETER", "rareterm")).isTrue();
    assertThat(RawTerms.Text.surelyAbsent("a \u212Aey b", "key")).isFalse(); // Kelvin sign
    assertThat(RawTerms.Text.surelyAbsent("\u0130stanbul", "istanbul")).isFalse();
    assertThat(RawTerms.Text.surelyAbsent("plain", "caf\u00e9")).isFalse();
    assertThat(RawTerms.Text.surelyAbsent("anything", "")).isFalse();
  }

  @Test
  void aBareStarMatchesAnEventWithoutTerms() {
    String longToken = "a".repeat(io.quarry.codecs.tokens.Segmenter.MAX_TERM_LENGTH + 1);
    for (String raw : new String[] {longToken, "", "   ", "x " + longToken}) {
      assertThat(new RawTerms.Text(raw).matches(new io.quarry.ql.exec.SearchTerm("*", false)))
          .as(raw)
          .isTrue();
      assertThat(new RawTerms.Text(raw).matches(new io.quarry.ql.exec.SearchTerm("**", false)))
          .as(raw)
          .isTrue();
    }
    // a word with a star still needs a term: the long token is no term
    assertThat(new RawTerms.Text(longToken).matches(new io.quarry.ql.exec.SearchTerm("a*", false)))
        .isFalse();
  }

  @Test
  void surelyAbsentOnlyWhereTheLowerCaseLacksTheWord() {
    Random random = new Random(23);
    String alphabet = "aAbBkK -=\u212A\u0130";
    for (int i = 0; i < 200_000; i++) {
      String raw = text(random, alphabet, random.nextInt(12));
      String word = text(random, "abk -=", 1 + random.nextInt(3));
      boolean held = raw.toLowerCase(Locale.ROOT).contains(word);
      if (RawTerms.Text.surelyAbsent(raw, word)) {
        assertThat(held).as("%s in %s", word, raw).isFalse();
      } else if (raw.chars().allMatch(c -> c < 0x80)) {
        assertThat(held).as("%s in %s", word, raw).isTrue(); // ASCII: decided exactly
      }
    }
  }

  @Test
  void onTheBytesAsOnTheText() {
    Random random = new Random(29);
    String alphabet = "aAbBkKzZ -=.@[`{";
    for (int i = 0; i < 200_000; i++) {
      String raw = text(random, alphabet, random.nextInt(12));
      String word = text(random, "abkz -=.@[`{", 1 + random.nextInt(3));
      byte[] padded = ("<<" + raw + ">>").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      assertThat(onBytes(word).surelyAbsent(padded, 2, raw.length()))
          .as("%s in %s", word, raw)
          .isEqualTo(RawTerms.Text.surelyAbsent(raw, word))
          .isEqualTo(!raw.toLowerCase(Locale.ROOT).contains(word));
    }
    assertThat(onBytes("").surelyAbsent(new byte[] {'a'}, 0, 1)).isFalse();
    assertThat(onBytes("caf\u00e9").surelyAbsent(new byte[] {'c'}, 0, 1)).isFalse();
  }

  @Test
  void plainWordsAndPhrasesOnTheBytesAsOnTheText() {
    Random random = new Random(31);
    String alphabet = "aAbBzZ -=._/@[`{\"*";
    for (int i = 0; i < 300_000; i++) {
      String raw = text(random, alphabet, random.nextInt(14));
      String word = text(random, "aAbBz-._= ", 1 + random.nextInt(4));
      byte[] padded = ("ab" + raw + "ab").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      assertDecidedAsTheText(padded, 2, raw, word);
    }
    byte[] text = "GET /a".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    assertThat(
            RawTerms.OnBytes.of(new io.quarry.ql.exec.SearchTerm("g*", false))
                .matches(text, 0, text.length))
        .isEqualTo(RawTerms.UNDECIDED);
    assertThat(
            RawTerms.OnBytes.of(
                    new io.quarry.ql.exec.SearchTerm(
                        "get", false, io.quarry.ql.ast.SearchExpression.Directive.TERM))
                .matches(text, 0, text.length))
        .isEqualTo(RawTerms.UNDECIDED);
    assertThat(
            RawTerms.OnBytes.of(new io.quarry.ql.exec.SearchTerm("get", false))
                .matches(text, 0, text.length))
        .isEqualTo(1);
    assertThat(
            RawTerms.OnBytes.of(new io.quarry.ql.exec.SearchTerm("ge", false))
                .matches(text, 0, text.length))
        .isEqualTo(0);
  }

  /**
   * Texts long enough that the search tries eight start positions at a time (a word's first and
   * last characters in two 8-byte loads), at every alignment, the text at the array's very start
   * and end or amid bytes that hold the word, with bytes one bit away from a letter ({@code `},
   * {@code c}, {@code @}) that the 8-byte comparison may flag: the answers are the text's own.
   */
  @Test
  void longTextsOnTheBytesAsOnTheText() {
    Random random = new Random(37);
    String alphabet = "aAbBcC`@zZ -=._/";
    for (int i = 0; i < 200_000; i++) {
      String raw = text(random, alphabet, random.nextInt(90));
      String word = text(random, "aAbBcz-._= ", 1 + random.nextInt(9));
      String before = random.nextBoolean() ? "" : word + text(random, alphabet, random.nextInt(9));
      String after = random.nextBoolean() ? "" : text(random, alphabet, random.nextInt(9)) + word;
      byte[] bytes = (before + raw + after).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
      assertDecidedAsTheText(bytes, before.length(), raw, word);
      assertThat(onBytes(word).surelyAbsent(bytes, before.length(), raw.length()))
          .as("%s in %s", word, raw)
          .isEqualTo(!raw.toLowerCase(Locale.ROOT).contains(word.toLowerCase(Locale.ROOT)));
    }
  }

  /**
   * {@code word} as a word and as a phrase, decided on {@code raw} lying at {@code offset} of
   * {@code bytes}: as the text's own matching answers.
   */
  private static void assertDecidedAsTheText(byte[] bytes, int offset, String raw, String word) {
    for (io.quarry.ql.exec.SearchTerm term :
        List.of(
            new io.quarry.ql.exec.SearchTerm(word, false),
            new io.quarry.ql.exec.SearchTerm(word, true))) {
      int held = RawTerms.OnBytes.of(term).matches(bytes, offset, raw.length());
      assertThat(held).as("%s in %s", word, raw).isNotEqualTo(RawTerms.UNDECIDED);
      assertThat(held == 1)
          .as("%s (phrase %s) in %s", word, term.phrase(), raw)
          .isEqualTo(new RawTerms.Text(raw).matches(term));
    }
  }

  /** A bare word on the bytes (its lower case is what {@code surelyAbsent} looks for). */
  private static RawTerms.OnBytes onBytes(String word) {
    return RawTerms.OnBytes.of(new io.quarry.ql.exec.SearchTerm(word, false));
  }

  private static String text(Random random, String alphabet, int length) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
