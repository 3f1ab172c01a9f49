package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The token stream the index is built from must yield exactly the terms the search side computes
 * with {@link Segmenter#terms}, on the ASCII byte path and the character path alike.
 */
class TermTokenStreamTest {
  private static List<String> indexed(String text) throws IOException {
    List<String> terms = new ArrayList<>();
    try (TermTokenStream stream = TermTokenStream.of(text)) {
      TermToBytesRefAttribute term = stream.getAttribute(TermToBytesRefAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        terms.add(term.getBytesRef().utf8ToString());
      }
      stream.end();
    }
    return terms;
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "10.1.2.3 - - [07/Jan/2026:00:00:01 +0000] \"GET /Cart.do?itemId=EST-14 HTTP/1.1\" 200",
        "ERROR Failed password for Invalid user ADMIN from 1.2.3.4 port 22 ssh2",
        "Grüße aus Köln: ÄRGER mit dem Server\u2003(em space) STRASSE",
        "İstanbul DİKKAT ı",
        "emoji \uD83D\uDE00 and tabs\tand\r\nnewlines",
        "",
        "   "
      })
  void yieldsTheSameTermsAsTheSearchSide(String text) throws IOException {
    assertThat(new LinkedHashSet<>(indexed(text))).isEqualTo(Segmenter.terms(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/loghub/Linux_2k.log"})
  void realLogsTakeTheAsciiPathAndAgree(String resource) throws IOException {
    String log;
    try (var in = TermTokenStreamTest.class.getResourceAsStream(resource)) {
      log = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    for (String line : log.lines().toList()) {
      assertThat(TermTokenStream.of(line)).isInstanceOf(TermTokenStream.Ascii.class);
      assertThat(new LinkedHashSet<>(indexed(line))).as(line).isEqualTo(Segmenter.terms(line));
    }
  }
}
