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
}
