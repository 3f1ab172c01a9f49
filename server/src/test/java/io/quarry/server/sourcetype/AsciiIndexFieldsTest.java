package io.quarry.server.sourcetype;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.sourcetype.SourcetypeSettings.IndexExtractionSettings;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The index-time extractions over an event's bytes ({@link Sourcetype#asciiIndexFields}) against
 * the {@code String} path ({@link Sourcetype#indexFields(String)}, {@code java.util.regex} for a
 * {@code regex} extraction): over the demo access log, its lines with {@code JSESSIONID} variants
 * and thousands of damaged copies, wherever the byte path answers it gives the same fields, values
 * and order; and it does answer where it should (so a byte path that gave up would fail here).
 */
class AsciiIndexFieldsTest {
  private static final String SESSIONS = "JSESSIONID=(?<JSESSIONID>[^&\\s\"]+)";

  private static List<String> lines() throws IOException {
    List<String> lines = new ArrayList<>();
    try (InputStream in =
        AsciiIndexFieldsTest.class.getResourceAsStream("/io/quarry/server/demo/access.log")) {
      lines.addAll(List.of(new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")));
    }
    String base =
        "10.1.2.3 - - [07/Jan/2026:00:00:00 +0000] \"GET /cart.do?%s HTTP 1.1\" 200 17 \"-\" \"ua\"";
    for (String query :
        List.of(
            "JSESSIONID=SD7SL5FF10ADFF4",
            "action=view&JSESSIONID=SD1&itemId=EST-1",
            "JSESSIONID=",
            "JSESSIONID=&x=1",
            "JSESSIONID=a\"b",
            "JSESSIONID=first&JSESSIONID=second",
            "jsessionid=lower",
            "JSESSIONID=caf\u00e9",
            "x=\u00e9&JSESSIONID=after",
            "JSESSIONID=before&x=\u00e9",
            "status=404&n=7",
            "")) {
      lines.add(base.formatted(query));
    }
    lines.add("JSESSIONID=atTheStart and no access-log shape");
    lines.add("no session at all");
    lines.add("a line ending in JSESSIONID=");
    lines.add("a line ending in JSESSIONID=x");
    lines.add("\u00e9 non-ASCII before anything JSESSIONID=s1 status=200");
    return lines;
  }

  private static String damaged(String line, Random random) {
    String alphabet = " \t\"[]?&=-0123456789AZaz/.\u00e9";
    StringBuilder damaged = new StringBuilder(line);
    for (int edits = 1 + random.nextInt(3); edits > 0 && damaged.length() > 0; edits--) {
      int at = random.nextInt(damaged.length());
      char c = alphabet.charAt(random.nextInt(alphabet.length()));
      switch (random.nextInt(3)) {
        case 0 -> damaged.deleteCharAt(at);
        case 1 -> damaged.insert(at, c);
        default -> damaged.setCharAt(at, c);
      }
    }
    return damaged.toString();
  }

  private static Sourcetype sourcetype(String... regexes) {
    List<IndexExtractionSettings> extractions = new ArrayList<>();
    for (String regex : regexes) {
      extractions.add(
          regex.equals("kv")
              ? new IndexExtractionSettings("kv", null)
              : new IndexExtractionSettings("regex", regex));
    }
    return Sourcetype.from(
        "t", new SourcetypeSettings.Builder().indexExtractions(extractions).build());
  }

  /**
   * How many texts the byte path answered; each answer is the {@code String} path's, entry by entry
   * in order. Texts are given a byte a character (ISO-8859-1), in the middle of a larger array, as
   * the ingest's body holds them.
   */
  private static int compare(Sourcetype sourcetype, List<String> texts) {
    int answered = 0;
    for (String text : texts) {
      if (text.chars().anyMatch(c -> c > 255)) {
        continue;
      }
      byte[] body = ("ab\n" + text + "\ncd").getBytes(ISO_8859_1);
      Map<String, List<String>> bytes = sourcetype.asciiIndexFields(body, 3, text.length());
      if (bytes == null) {
        continue;
      }
      answered++;
      Map<String, List<String>> string = sourcetype.indexFields(text);
      assertThat(List.copyOf(bytes.entrySet()))
          .as("%s over %s", sourcetype.indexExtractions(), text)
          .isEqualTo(List.copyOf(string.entrySet()));
    }
    return answered;
  }

  private static List<String> manyLines() throws IOException {
    List<String> lines = lines();
    Random random = new Random(47);
    int given = lines.size();
    for (int n = 0; n < 20_000; n++) {
      lines.add(damaged(lines.get(random.nextInt(given)), random));
    }
    return lines;
  }

  @Test
  void theAccessLogAndASessionRegexAgreeWithTheStringPath() throws IOException {
    Sourcetype sourcetype = sourcetype(AccessLogParser.INDEX_REGEX, SESSIONS);
    List<String> lines = manyLines();
    int answered = compare(sourcetype, lines);
    assertThat(answered).as("most lines are answered from the bytes").isGreaterThan(15_000);
    // a well-formed line with a session is answered, with the session after the access-log fields
    String line = lines().get(0);
    byte[] bytes = line.getBytes(ISO_8859_1);
    assertThat(sourcetype.asciiIndexFields(bytes, 0, bytes.length))
        .containsOnlyKeys("clientip", "method", "uri_path", "status", "JSESSIONID");
  }

  @Test
  void aRegexAloneAgreesWithTheStringPath() throws IOException {
    List<String> lines = manyLines();
    assertThat(compare(sourcetype(SESSIONS), lines)).isGreaterThan(15_000);
    assertThat(compare(sourcetype("^(?<clientip>\\S+) (?:\\S+) (?<user>\\S+)"), lines))
        .isGreaterThan(15_000);
    // unnamed capturing groups before the named ones: the numbers Java gives them
    assertThat(compare(sourcetype("^(\\S+) (\\S+) (?<user>\\S+) \\[(?<day>\\d+)"), lines))
        .isGreaterThan(15_000);
  }

  /**
   * Several regexes whose fields overlap: the earlier extraction's value wins, as does the earlier
   * of two groups one regex maps to one field ({@code reqtime} is read as {@code req_time});
   * default and underscore fields are dropped; a group whose name holds {@code _} keeps it.
   */
  @Test
  void overlappingRegexesKeepTheFirstValueAndDropTheEventsOwnFields() throws IOException {
    Sourcetype sourcetype =
        sourcetype(
            "\" (?<status>\\d{3}) (?<bytes>\\d+)",
            "^(?<src_ip>[\\d.]+) (?<host>\\S+)",
            "(?<status>\\d+)",
            "\\[(?<day>\\d+)/(?<month>[A-Za-z]+)/(?<year>\\d+):(?<reqtime>\\d+):(?<req_time>\\d+)",
            AccessLogParser.INDEX_REGEX,
            "JSESSIONID=(?<clientip>[A-Z0-9]+)",
            "(?<x_y>[a-z]+)=(?<index>\\d)");
    List<String> lines = manyLines();
    lines.add("status 7 src 1.2.3.4");
    assertThat(compare(sourcetype, lines)).isGreaterThan(15_000);
    String line = lines().get(0);
    byte[] bytes = line.getBytes(ISO_8859_1);
    Map<String, List<String>> fields = sourcetype.asciiIndexFields(bytes, 0, bytes.length);
    assertThat(fields).doesNotContainKeys("host", "index").containsEntry("status", List.of("200"));
    assertThat(fields.get("req_time")).isEqualTo(List.of("00"));
  }

  /** A byte above 127 met while matching leaves the event to the {@code String} path. */
  @Test
  void aNonAsciiByteTheMatcherMeetsIsLeftToTheStringPath() {
    Sourcetype sourcetype = sourcetype(SESSIONS);
    byte[] bytes = "x=\u00e9 JSESSIONID=s1".getBytes(ISO_8859_1);
    assertThat(sourcetype.asciiIndexFields(bytes, 0, bytes.length)).isNull();
    bytes = "JSESSIONID=s1 x=\u00e9".getBytes(ISO_8859_1);
    assertThat(sourcetype.asciiIndexFields(bytes, 0, bytes.length))
        .isEqualTo(Map.of("JSESSIONID", List.of("s1")));
  }

  /**
   * A regex outside the byte matcher's subset, or a {@code kv} extraction, sends every event of the
   * sourcetype down the {@code String} path; the access-log extraction alone answers as before.
   */
  @Test
  void extractionsThatNeedTheTextTakeTheStringPath() throws IOException {
    List<String> lines = lines();
    for (Sourcetype sourcetype :
        List.of(
            sourcetype(AccessLogParser.INDEX_REGEX, "JSESSIONID=(?<JSESSIONID>\\w+?)&"),
            sourcetype(AccessLogParser.INDEX_REGEX, "kv"),
            sourcetype("(?<a>\\S+)\\d"))) {
      assertThat(compare(sourcetype, lines)).as("%s", sourcetype.indexExtractions()).isZero();
    }
    assertThat(compare(sourcetype(AccessLogParser.INDEX_REGEX), lines)).isGreaterThan(1_000);
  }
}
