package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.ql.exec.KeyValues;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class KeyValuesTest {
  /**
   * The definition the hand scanner, read plain ({@code kvMode: auto}), must agree with (it was the
   * implementation): a quoted value ends at the first quote, backslashes and all.
   */
  private static final Pattern REFERENCE =
      Pattern.compile("(?<![\\w.-])([A-Za-z_][\\w.-]{0,99})=(?:\"([^\"]*)\"|([^\\s,;&\"]+))");

  private static Map<String, List<String>> reference(String raw) {
    Map<String, List<String>> fields = new LinkedHashMap<>();
    Matcher pairs = REFERENCE.matcher(raw);
    while (pairs.find()) {
      String value = pairs.group(2) != null ? pairs.group(2) : pairs.group(3);
      fields.computeIfAbsent(pairs.group(1), k -> new ArrayList<>()).add(value);
    }
    return fields;
  }

  /** Up to 40 characters from an alphabet dense in what key=value scanning decides on. */
  private static String randomText(SplittableRandom random) {
    String alphabet = "ab_9.-=\"  ,;&\tZ\\";
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(40);
    for (int c = 0; c < length; c++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  @Test
  void pairsQuotesAndRepeats() {
    assertThat(KeyValues.extract("user=bob action=\"log in\" user=alice, code=7;x=1&y=2", false))
        .containsExactly(
            Map.entry("user", List.of("bob", "alice")),
            Map.entry("action", List.of("log in")),
            Map.entry("code", List.of("7")),
            Map.entry("x", List.of("1")),
            Map.entry("y", List.of("2")));
  }

  @Test
  void autoEndsAQuotedValueAtTheFirstQuoteAndAutoEscapedHonoursEscapes() {
    // props.conf.spec: auto_escaped honours \" and \\ as escaped sequences within quoted values
    String raw = "msg=\"say \\\"hi\\\"\" path=\"C:\\\\tmp\\\\\" n=1";
    assertThat(KeyValues.extract(raw, false))
        .containsExactly(
            Map.entry("msg", List.of("say \\")),
            Map.entry("path", List.of("C:\\\\tmp\\\\")),
            Map.entry("n", List.of("1")));
    assertThat(KeyValues.extract(raw, true))
        .containsExactly(
            Map.entry("msg", List.of("say \"hi\"")),
            Map.entry("path", List.of("C:\\tmp\\")),
            Map.entry("n", List.of("1")));
    // an escape left open (a path ending in \ before the last quote): the first quote closes
    assertThat(KeyValues.values("p=\"C:\\\" n=2", "p", true)).containsExactly("C:\\");
  }

  @Test
  void edgeCasesAgreeWithTheRegexDefinition() {
    for (String raw :
        List.of(
            "a=b=c",
            "9key=v k=",
            "k=\"unclosed",
            "k=\"\" j=\"x\"y",
            "=v ==x a.b-c=1 -x=2 .y=3",
            "GET /cart.do?action=view&itemId=EST-2&JSESSIONID=SD5SL9FF2ADFF4 HTTP 1.1",
            "x".repeat(100) + "=long " + "y".repeat(101) + "=toolong",
            "tab=\tv nl=\nv ok=1")) {
      assertThat(KeyValues.extract(raw, false)).as(raw).isEqualTo(reference(raw));
    }
  }

  @Test
  void randomTextAgreesWithTheRegexDefinition() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 20_000; i++) {
      String text = randomText(random);
      assertThat(KeyValues.extract(text, false)).as(text).isEqualTo(reference(text));
    }
  }

  @Test
  void oneKeyAgreesWithEveryPair() {
    SplittableRandom random = new SplittableRandom(13);
    for (int i = 0; i < 20_000; i++) {
      String text = randomText(random);
      Map<String, List<String>> all = KeyValues.extract(text, false);
      Map<String, List<String>> escaped = KeyValues.extract(text, true);
      for (String key : List.of("a", "b", "ab", "a.b", "_", "Z", "zz")) {
        assertThat(KeyValues.values(text, key, false))
            .as(text + " / " + key)
            .isEqualTo(all.getOrDefault(key, List.of()));
        assertThat(KeyValues.values(text, key, true))
            .as(text + " / " + key + " escaped")
            .isEqualTo(escaped.getOrDefault(key, List.of()));
      }
    }
    String line = "GET /cart.do?action=view&itemId=EST-2&JSESSIONID=SD5SL9FF2ADFF4 HTTP 1.1";
    assertThat(KeyValues.values(line, "JSESSIONID", false)).containsExactly("SD5SL9FF2ADFF4");
    assertThat(KeyValues.values(line, "jsessionid", false)).isEmpty();
    assertThat(KeyValues.values("a=1 ba=2 a=3", "a", false)).containsExactly("1", "3");
  }

  @Test
  void everyLoghubLineAgreesWithTheRegexDefinition() throws IOException {
    for (String file :
        List.of(
            "OpenStack_2k.log",
            "Hadoop_2k.log",
            "Spark_2k.log",
            "Apache_2k.log",
            "Linux_2k.log",
            "Thunderbird_2k.log",
            "Windows_2k.log")) {
      try (InputStream in = KeyValuesTest.class.getResourceAsStream("/loghub/" + file)) {
        assertThat(in).as(file).isNotNull();
        for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
          assertThat(KeyValues.extract(line, false)).as(line).isEqualTo(reference(line));
        }
      }
    }
  }
}
