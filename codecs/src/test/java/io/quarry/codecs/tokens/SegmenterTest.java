package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SegmenterTest {

  @Test
  void accessLogLineYieldsTokensAndTheirParts() {
    String line =
        "10.1.2.3 - - [07/Jan/2026:00:00:01 +0000] \"GET /cart.do?action=view&itemId=EST-14 HTTP/1.1\""
            + " 200 1234";
    assertThat(Segmenter.terms(line))
        .contains(
            "10.1.2.3",
            "10",
            "1",
            "2",
            "3",
            "get",
            "/cart.do",
            "cart",
            "do",
            "action",
            "view",
            "itemid",
            "est-14",
            "est",
            "14",
            "200",
            "1234",
            "http/1.1",
            "07/jan/2026:00:00:01")
        .doesNotContain("GET", "\"get", "[07/jan/2026:00:00:01")
        .as("no prefixes between the parts and the whole token")
        .doesNotContain("10.1", "10.1.2", "/cart", "07/jan", "07/jan/2026:00");
  }

  @Test
  void requiredPartsAreASupersetConditionForEveryLoghubLine() throws IOException {
    List<String> lines;
    try (var in = SegmenterTest.class.getResourceAsStream("/loghub/Linux_2k.log")) {
      lines =
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines().toList();
    }
    assertThat(lines).hasSizeGreaterThan(1000);
    for (String line : lines) {
      var terms = Segmenter.terms(line);
      for (String word : line.split("\\s+")) {
        if (word.isEmpty()) {
          continue;
        }
        assertThat(terms)
            .as("parts of '%s' in '%s'", word, line)
            .containsAll(Segmenter.requiredParts(word));
      }
    }
  }

  @Test
  void singleTermsHaveNoBreakers() {
    assertThat(Segmenter.isSingleTerm("error")).isTrue();
    assertThat(Segmenter.isSingleTerm("10.1.2.3")).isFalse();
    assertThat(Segmenter.isSingleTerm("")).isFalse();
    assertThat(Segmenter.requiredParts("Failed-password:for"))
        .containsExactly("failed", "password", "for");
  }

  @Test
  void containsTermAgreesWithTheTermSetOnRandomTexts() {
    java.util.Random random = new java.util.Random(7);
    String alphabet = "abAB1 -./:=\"[]_\u0130\u212a\u00e9";
    for (int round = 0; round < 20_000; round++) {
      String text = randomText(random, alphabet, 1 + random.nextInt(40));
      String lower = text.toLowerCase(java.util.Locale.ROOT);
      var terms = Segmenter.terms(text);
      for (String term : terms) {
        if (Segmenter.isSingleTerm(term)) {
          assertThat(Segmenter.containsTerm(lower, term)).as("'%s' in '%s'", term, text).isTrue();
        }
      }
      String word = randomText(random, "abAB1\u212a", 1 + random.nextInt(3));
      String term = word.toLowerCase(java.util.Locale.ROOT);
      assertThat(Segmenter.containsTerm(lower, term))
          .as("'%s' in '%s'", term, text)
          .isEqualTo(terms.contains(term));
    }
  }

  @Test
  void containsTermNeedsABreakerOrAnEndOnEachSide() {
    String lower = "get /cart.do?itemid=est-14 http/1.1 200";
    assertThat(Segmenter.containsTerm(lower, "cart")).isTrue();
    assertThat(Segmenter.containsTerm(lower, "get")).isTrue();
    assertThat(Segmenter.containsTerm(lower, "200")).isTrue();
    assertThat(Segmenter.containsTerm(lower, "14")).isTrue();
    assertThat(Segmenter.containsTerm(lower, "car")).isFalse();
    assertThat(Segmenter.containsTerm(lower, "temid")).isFalse();
    assertThat(Segmenter.containsTerm(lower, "20")).isFalse();
  }

  private static String randomText(java.util.Random random, String alphabet, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }
}
