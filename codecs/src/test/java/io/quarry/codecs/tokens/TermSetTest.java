package io.quarry.codecs.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.AsciiText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.TermToBytesRefAttribute;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;

/**
 * A block's term set must hold exactly the union of its events' terms as the per-event index has
 * them ({@link TermTokenStream}, compared as the bytes Lucene indexes), each once.
 */
class TermSetTest {

  /** Every term a stream yields, as the bytes Lucene would index, in order. */
  private static List<BytesRef> indexed(TokenStream stream) throws IOException {
    List<BytesRef> terms = new ArrayList<>();
    try (stream) {
      TermToBytesRefAttribute term = stream.getAttribute(TermToBytesRefAttribute.class);
      stream.reset();
      while (stream.incrementToken()) {
        terms.add(BytesRef.deepCopyOf(term.getBytesRef()));
      }
      stream.end();
    }
    return terms;
  }

  private static void assertUnionOfEvents(TermSet set, List<String> events) throws IOException {
    set.clear();
    Set<BytesRef> union = new HashSet<>();
    for (String event : events) {
      set.add(event);
      union.addAll(indexed(TermTokenStream.of(event)));
    }
    List<BytesRef> distinct = indexed(set.tokenStream());
    assertThat(distinct).as("each term once").doesNotHaveDuplicates();
    assertThat(new HashSet<>(distinct)).as("the union of %s", events).isEqualTo(union);
    assertThat(set.size()).isEqualTo(union.size());
    // the same texts given as ASCII bytes where they are (as the store hands them): the same terms
    TermSet fromBytes = new TermSet();
    addAsStored(fromBytes, events);
    assertThat(fromBytes.terms()).as("from bytes").isEqualTo(set.terms());
  }

  /** Adds texts as the store hands them: an ASCII text as its bytes, any other as itself. */
  static void addAsStored(TermSet set, List<String> texts) {
    for (String text : texts) {
      byte[] ascii = AsciiText.bytesOf(text);
      if (ascii != null) {
        set.addAscii(ascii);
      } else {
        set.add(text);
      }
    }
  }

  @Test
  void blocksOfRealLogLinesHoldTheUnionOfTheirTerms() throws IOException {
    List<String> lines;
    try (var in = TermSetTest.class.getResourceAsStream("/loghub/Linux_2k.log")) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    }
    TermSet set = new TermSet(); // reused across blocks, as a writer reuses it
    for (int from = 0; from < lines.size(); from += 256) {
      assertUnionOfEvents(set, lines.subList(from, Math.min(lines.size(), from + 256)));
    }
  }

  @Test
  void mixedScriptsCaseAndBreakers() throws IOException {
    assertUnionOfEvents(
        new TermSet(),
        List.of(
            "10.1.2.3 - - [07/Jan/2026:00:00:01 +0000] \"GET /Cart.do?itemId=EST-14 HTTP/1.1\" 200",
            "Grüße aus Köln: ÄRGER mit dem Server\u2003(em space) STRASSE",
            "İstanbul DİKKAT ı",
            "emoji \uD83D\uDE00 and a lone \uD800 surrogate",
            "",
            "   ",
            "x".repeat(300) + ".part " + "Y".repeat(256)));
  }

  @Test
  void randomTextsOfBreakersAndLetters() throws IOException {
    Random random = new Random(23);
    String alphabet = "aAbBzZ019 \t./:-_=,\"[]()|*éÉßİ\u00a0\u2003\uD83D\uDE00";
    TermSet set = new TermSet();
    for (int round = 0; round < 300; round++) {
      List<String> events = new ArrayList<>();
      int count = 1 + random.nextInt(300);
      for (int e = 0; e < count; e++) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(random.nextInt(10) == 0 ? 600 : 60);
        for (int i = 0; i < length; i++) {
          text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        events.add(text.toString());
      }
      assertUnionOfEvents(set, events);
    }
  }

  @Test
  void randomAsciiTextsOverEveryCharacter() throws IOException {
    Random random = new Random(29);
    TermSet set = new TermSet();
    for (int round = 0; round < 200; round++) {
      List<String> events = new ArrayList<>();
      int count = 1 + random.nextInt(200);
      for (int e = 0; e < count; e++) {
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(random.nextInt(10) == 0 ? 900 : 80);
        boolean longTokens = random.nextInt(4) == 0; // runs of letters past the term length limit
        for (int i = 0; i < length; i++) {
          text.append(
              longTokens && random.nextInt(300) != 0
                  ? (char) ('a' + random.nextInt(3))
                  : (char) random.nextInt(0x80));
        }
        events.add(text.toString());
      }
      assertUnionOfEvents(set, events);
    }
  }

  /**
   * Quoted spans that repeat within a block (an access log's referers and user agents) are split
   * once ({@link SeenSpans}); the terms must not change: near copies of a span (one byte apart,
   * another case, one byte shorter), spans at other places, spans around the length limit, and
   * quotes at every offset of an eight-byte word.
   */
  @Test
  void repeatedQuotedSpansGiveTheSameTerms() throws IOException {
    Random random = new Random(31);
    String[] spans = {
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)",
      "Mozilla/5.0 (Linux; Android 14; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko)",
      "MOZILLA/5.0 (linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko)",
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko",
      "http://buttercup-shopping.com/cart.do?action=remove&itemId=EST-19",
      "http://buttercup-shopping.com/cart.do?action=remove&itemId=EST-18",
      "x".repeat(SeenSpans.MIN_LENGTH - 1),
      "y".repeat(SeenSpans.MIN_LENGTH),
      "a-b".repeat(SeenSpans.MIN_LENGTH),
      "python-requests/2.32.0",
      "-",
      ""
    };
    TermSet set = new TermSet();
    for (int round = 0; round < 60; round++) {
      List<String> events = new ArrayList<>();
      int count = 1 + random.nextInt(400);
      for (int e = 0; e < count; e++) {
        StringBuilder text = new StringBuilder();
        text.append("1.2.3.").append(random.nextInt(9)).append(" - - ".repeat(random.nextInt(3)));
        int quoted = random.nextInt(SeenSpans.PLACES + 3);
        for (int q = 0; q < quoted; q++) {
          text.append(" ".repeat(random.nextInt(8))).append('"');
          text.append(
              random.nextInt(5) == 0
                  ? "id=" + random.nextInt(1000)
                  : spans[random.nextInt(spans.length)]);
          text.append('"');
        }
        events.add(text.toString());
      }
      assertUnionOfEvents(set, events);
    }
  }

  @Test
  void nextQuoteFindsTheFirstQuoteAtEveryOffset() {
    Random random = new Random(37);
    for (int round = 0; round < 2_000; round++) {
      byte[] text = new byte[random.nextInt(40)];
      for (int i = 0; i < text.length; i++) {
        text[i] = (byte) (random.nextInt(6) == 0 ? '"' : random.nextInt(0x80));
      }
      int from = text.length == 0 ? 0 : random.nextInt(text.length);
      int to = from + random.nextInt(text.length - from + 1);
      int expected = -1;
      for (int i = from; i < to && expected < 0; i++) {
        expected = text[i] == '"' ? i : -1;
      }
      assertThat(TermSet.nextQuote(text, from, to))
          .as("%s", java.util.Arrays.toString(text))
          .isEqualTo(expected);
    }
  }

  @Test
  void lowerCaseOfEightBytesEqualsEachBytesLowerCase() {
    Random random = new Random(13);
    for (int round = 0; round < 20_000; round++) {
      long word = 0;
      long expected = 0;
      for (int b = 0; b < Long.BYTES; b++) {
        int c = round < 128 ? (round + b) % 128 : random.nextInt(128); // every ASCII byte first
        word |= (long) c << (8 * b);
        expected |= (long) (c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c) << (8 * b);
      }
      assertThat(TermSet.lowerCase(word)).as("%016x", word).isEqualTo(expected);
    }
  }
}
