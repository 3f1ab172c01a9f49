package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.exec.KeyValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyPlaces} answers each text of a region exactly as {@link KeyValues#values} answers it
 * alone: texts laid back to back as a block's events lie, asked in order, out of order and in
 * reverse (bytes as Latin-1, one byte a character, so non-ASCII neighbours are single bytes); the
 * scalar {@link EqualsPass} and the vector one.
 */
class KeyPlacesTest {

  /** Each text's values by both passes, which must agree. */
  private static List<List<String>> values(List<String> texts, String key, int[] order) {
    List<List<String>> scalar = values(texts, key, order, new ScalarEqualsPass("test"));
    // the widest only: a JVM that loads several widths runs them all slowly (EqualsPassAgreement),
    // and this one is shared; EqualsPassTest checks every width's = against the scalar's
    assertThat(values(texts, key, order, VectorEqualsPass.preferred())).isEqualTo(scalar);
    return scalar;
  }

  /** Each text's values from one region holding all of them, asking in {@code order}. */
  private static List<List<String>> values(
      List<String> texts, String key, int[] order, EqualsPass pass) {
    StringBuilder region = new StringBuilder("x=\"a "); // bytes before the region: never read
    int[] offsets = new int[texts.size() + 1];
    int start = region.length();
    for (int i = 0; i < texts.size(); i++) {
      offsets[i] = region.length();
      region.append(texts.get(i));
    }
    offsets[texts.size()] = region.length();
    int end = region.length();
    region.append("\" JSESSIONID=after K=z");
    byte[] bytes = region.toString().getBytes(StandardCharsets.ISO_8859_1);
    KeyPlaces places = new KeyPlaces(key.getBytes(StandardCharsets.ISO_8859_1), pass);
    places.reset(bytes, start, end);
    List<List<String>> answers = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      answers.add(null);
    }
    for (int i : order) {
      List<String> found = new ArrayList<>();
      int count =
          places.values(
              bytes,
              offsets[i],
              offsets[i + 1] - offsets[i],
              (s, e) -> found.add(new String(bytes, s, e - s, StandardCharsets.ISO_8859_1)));
      assertThat(count).isEqualTo(found.size());
      answers.set(i, found);
    }
    return answers;
  }

  private static void agree(List<String> texts, String key, int[] order) {
    List<List<String>> answers = values(texts, key, order);
    for (int i : order) {
      assertThat(answers.get(i))
          .as("'%s' key %s", texts.get(i), key)
          .isEqualTo(KeyValues.values(texts.get(i), key, false));
    }
  }

  /** 1 to {@code maxTexts} texts, each under {@code maxTokens} tokens drawn from {@code tokens}. */
  private static List<String> randomTexts(
      Random random, List<String> tokens, int maxTexts, int maxTokens) {
    List<String> texts = new ArrayList<>();
    int count = 1 + random.nextInt(maxTexts);
    for (int t = 0; t < count; t++) {
      StringBuilder text = new StringBuilder();
      int length = random.nextInt(maxTokens);
      for (int i = 0; i < length; i++) {
        text.append(tokens.get(random.nextInt(tokens.size())));
      }
      texts.add(text.toString());
    }
    return texts;
  }

  private static int[] inOrder(int n) {
    return java.util.stream.IntStream.range(0, n).toArray();
  }

  @Test
  void answersAccessLogLines() {
    List<String> lines =
        List.of(
            "10.0.0.1 - - [07/Jan/2026:10:00:00 +0000] \"GET /cart?JSESSIONID=SD5SL9FF2ADFF4958"
                + "&item=EST-15 HTTP/1.1\" 200 1665 \"http://x.com/a.do?action=view&itemId=EST-1\"",
            "10.0.0.2 - - [07/Jan/2026:10:00:01 +0000] \"GET /images/logo.png HTTP 1.1\" 200 2883",
            "10.0.0.3 - - \"GET /oldlink?item_id=EST-13&JSESSIONID=SD8SLMKAKXBOLZ HTTP 1.1\" 200",
            "q=xJSESSIONID=1 r=2",
            "q=\"a JSESSIONID=1\" r=2",
            "JSESSIONID=\"3 4\" z JSESSIONID=5",
            "a=1 JSESSIONID=",
            "JSESSIONID=");
    List<List<String>> answers = values(lines, "JSESSIONID", inOrder(lines.size()));
    assertThat(answers)
        .containsExactly(
            List.of("SD5SL9FF2ADFF4958"),
            List.of(),
            List.of("SD8SLMKAKXBOLZ"),
            List.of(),
            List.of(),
            List.of("3 4", "5"),
            List.of(),
            List.of());
  }

  @Test
  void agreesWithKeyValuesOnRandomRegions() {
    // texts of keys, values and separators, so a key stands before an '=' often and in every
    // place the scan of pairs can leave it, one text's pairs running up to the next text's start
    Random random = new Random(11);
    List<String> tokens =
        List.of(
            "K", "K=", "xK=", "a=", "=", "v", "\"", " ", "&", ";", ",", "?", "K=\"", "_", "/", "\\",
            "\\\"");
    for (int round = 0; round < 3_000; round++) {
      List<String> texts = randomTexts(random, tokens, 12, 10);
      int count = texts.size();
      int[] order = inOrder(count);
      if (random.nextBoolean()) { // some texts asked again or before earlier ones
        for (int i = 0; i < count; i++) {
          order[i] = random.nextInt(count);
        }
      }
      for (String key : List.of("K", "a", "xK", "K.")) {
        agree(texts, key, order);
      }
    }
  }

  private static int[] reversed(int n) {
    return java.util.stream.IntStream.range(0, n).map(i -> n - 1 - i).toArray();
  }

  @Test
  void agreesOnNewlinesNonAsciiNeighboursLongKeysInReverse() {
    String longKey = "L" + "x".repeat(99); // 100 characters: the longest key the scan takes
    String tooLong = longKey + "y";
    Random random = new Random(23);
    List<String> tokens =
        List.of(
            "K=",
            "K",
            "\n",
            "\r\n",
            "é",
            "ü=",
            "Kß=",
            "éK=",
            "=",
            "v",
            "\"",
            " ",
            "K=\"",
            longKey,
            longKey + "=",
            "a" + longKey + "=",
            tooLong + "=",
            "&",
            "\u00ff");
    for (int round = 0; round < 2_000; round++) {
      List<String> texts = randomTexts(random, tokens, 10, 8);
      int count = texts.size();
      for (String key : List.of("K", longKey, tooLong, "")) {
        agree(texts, key, inOrder(count));
        agree(texts, key, reversed(count));
      }
    }
  }

  @Test
  void anEmptyKeyHasNoValues() {
    // no pair has an empty key: the pass notes nothing (it once read the key's last byte)
    List<String> texts = List.of("=a b= =\"c\"", "x=1");
    assertThat(values(texts, "", inOrder(2))).containsExactly(List.of(), List.of());
  }

  @Test
  void answersLinesWithNewlinesAndNonAsciiNeighbours() {
    List<String> lines = List.of("a=1\nK=2\n", "éK=3 ü K=4", "ßK=5", "K=é6\r\nK=7");
    assertThat(values(lines, "K", reversed(lines.size())))
        .containsExactly(List.of("2"), List.of("3", "4"), List.of("5"), List.of("é6", "7"));
  }
}
