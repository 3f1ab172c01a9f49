package io.quarry.server.ingest;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import io.quarry.server.sourcetype.Sourcetype;
import io.quarry.server.sourcetype.SourcetypeSettings;
import java.io.ByteArrayOutputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The breaker over a body's bytes: ASCII lines taken straight from them, any other line decoded as
 * Java decodes UTF-8 (an invalid sequence as U+FFFD), so every event is the one the body decoded
 * whole and then broken gives. Checked against a reference written here: the body decoded by the
 * JDK, cut at line feeds, a carriage return before one dropped, trailing line ends stripped, blank
 * lines skipped, then cut to the longest prefix of at most {@code truncate} UTF-8 bytes.
 */
class EventBreakerBytesTest {
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

  private static byte[] bytes(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return bytes;
  }

  private static byte[] concat(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      out.writeBytes(part instanceof String text ? text.getBytes(UTF_8) : (byte[]) part);
    }
    return out.toByteArray();
  }

  private static Sourcetype plain(int truncate) {
    return Sourcetype.from("t", new SourcetypeSettings.Builder().truncate(truncate).build());
  }

  private static EventBreaker.Result breakBytes(Sourcetype sourcetype, byte[] body) {
    return new EventBreaker(sourcetype, "h", "src", NOW).breakEvents(body);
  }

  private static List<String> raws(EventBreaker.Result result) {
    return result.events().stream().map(Event::raw).toList();
  }

  /** The reference: what each event's text must be, computed without the breaker. */
  private static List<String> expected(byte[] body, int truncate) {
    String text = new String(body, UTF_8);
    List<String> events = new ArrayList<>();
    int start = 0;
    while (start < text.length()) {
      int end = text.indexOf('\n', start);
      end = end < 0 ? text.length() : end;
      String line = text.substring(start, end);
      start = end + 1;
      int stop = line.length();
      while (stop > 0 && (line.charAt(stop - 1) == '\r' || line.charAt(stop - 1) == '\n')) {
        stop--;
      }
      line = line.substring(0, stop);
      if (line.isBlank()) {
        continue;
      }
      events.add(truncate > 0 ? utf8Prefix(line, truncate) : line);
    }
    return events;
  }

  /** The longest prefix of whole code points whose UTF-8 is at most {@code maxBytes} bytes. */
  private static String utf8Prefix(String text, int maxBytes) {
    int bytes = 0;
    int i = 0;
    while (i < text.length()) {
      int codePoint = text.codePointAt(i);
      int size = new String(Character.toChars(codePoint)).getBytes(UTF_8).length;
      if (bytes + size > maxBytes) {
        break;
      }
      bytes += size;
      i += Character.charCount(codePoint);
    }
    return text.substring(0, i);
  }

  /** An event's range of the body, as a copy; null when it holds none. */
  private static byte[] ascii(Event event) {
    byte[] array = event.asciiArray();
    return array == null
        ? null
        : Arrays.copyOfRange(array, event.asciiOffset(), event.asciiOffset() + event.asciiLength());
  }

  private static List<byte[]> asciis(EventBreaker.Result result) {
    return result.events().stream().map(EventBreakerBytesTest::ascii).toList();
  }

  /** Each event's bytes, where it holds them, are its text's UTF-8 and that text is ASCII. */
  private static void assertBytesMatchTexts(EventBreaker.Result result) {
    for (Event event : result.events()) {
      byte[] ascii = ascii(event);
      String raw = event.raw();
      if (ascii != null) {
        assertThat(raw.chars().allMatch(c -> c < 0x80)).as(raw).isTrue();
        assertThat(ascii).isEqualTo(raw.getBytes(UTF_8));
      }
    }
  }

  /**
   * An ASCII line's event holds its range of the very body array (no copy: the body is the
   * caller's, handed over), and its text is made from that range only when asked.
   */
  @Test
  void anAsciiLineIsARangeOfTheBodyItself() {
    byte[] body = concat("skip\nfirst line\r\n\nsecond é\nthird");
    EventBreaker.Result result =
        new EventBreaker(plain(0), "h", "src", NOW).breakEvents(body, 5, body.length - 5);
    List<Event> events = result.events();
    assertThat(events).hasSize(3);
    assertThat(events.get(0).asciiArray()).isSameAs(body);
    assertThat(events.get(0).asciiOffset()).isEqualTo(5);
    assertThat(events.get(0).asciiLength()).isEqualTo("first line".length());
    assertThat(events.get(1).asciiArray()).isNull(); // not ASCII: decoded, a String of its own
    assertThat(events.get(2).asciiArray()).isSameAs(body);
    assertThat(events.get(2).asciiOffset()).isEqualTo(body.length - "third".length());
    assertThat(raws(result)).containsExactly("first line", "second é", "third");
  }

  @Test
  void crlfLinesAndABodyWithoutAFinalNewline() {
    EventBreaker.Result result = breakBytes(plain(0), concat("one\r\ntwo\n\r\n  \nthree\r"));
    assertThat(raws(result)).containsExactly("one", "two", "three");
    assertThat(asciis(result)).allSatisfy(b -> assertThat(b).isNotNull());
    assertBytesMatchTexts(result);
  }

  @Test
  void aMultiByteCharacterIsNeverCutAtTheTruncation() {
    // "abcd" then é (2 bytes): 5 bytes hold "abcd" alone; then € (3 bytes) across 6..8
    byte[] body = concat("abcdé\n", "abcde€xyz\n", "abcdefghij\n", "é\n");
    EventBreaker.Result result = breakBytes(plain(5), body);
    assertThat(raws(result)).containsExactly("abcd", "abcde", "abcde", "é");
    assertThat(result.truncated()).isEqualTo(3);
    assertThat(ascii(result.events().get(2))).isEqualTo("abcde".getBytes(UTF_8)); // cut as bytes
    assertBytesMatchTexts(result);
  }

  @Test
  void invalidUtf8ReadsAsReplacementCharactersAtLineEnds() {
    byte[] body =
        concat(
            "cut ",
            bytes(0xE2, 0x82),
            "\n", // a 3-byte sequence cut by the line end
            "lone ",
            bytes(0x80),
            " continuation\r\n",
            "emoji ",
            bytes(0xF0, 0x9F, 0x98),
            "\r\n", // cut before the carriage return
            "overlong ",
            bytes(0xC0, 0xAF),
            "\n",
            "ok ",
            bytes(0xF0, 0x9F, 0x98, 0x80)); // a whole emoji, no final newline
    EventBreaker.Result result = breakBytes(plain(0), body);
    assertThat(raws(result)).isEqualTo(expected(body, 0));
    assertThat(raws(result).get(0)).isEqualTo("cut \uFFFD");
    assertThat(raws(result).get(4)).isEqualTo("ok \uD83D\uDE00");
    assertThat(asciis(result)).containsOnlyNulls();
  }

  @Test
  void randomBodiesBreakAsTheWholeDecodedBody() {
    Object[] pieces = {
      "a",
      "b",
      "x y",
      " ",
      "\t",
      "\n",
      "\r",
      "\r\n",
      "\n\n",
      "é",
      "€",
      "😀",
      "0123456789abcdef",
      bytes(0xC3),
      bytes(0xE2, 0x82),
      bytes(0xF0, 0x9F),
      bytes(0x80),
      bytes(0xFF),
      bytes(0xC0, 0xAF),
      bytes(0x0B),
      bytes(0x1C)
    };
    Random random = new Random(23);
    for (int round = 0; round < 3_000; round++) {
      Object[] parts = new Object[random.nextInt(40)];
      for (int i = 0; i < parts.length; i++) {
        parts[i] = pieces[random.nextInt(pieces.length)];
      }
      byte[] body = concat(parts);
      for (int truncate : new int[] {0, 1, 3, 7, 20}) {
        EventBreaker.Result result = breakBytes(plain(truncate), body);
        assertThat(raws(result))
            .as("round %d, truncate %d", round, truncate)
            .isEqualTo(expected(body, truncate));
        assertBytesMatchTexts(result);
      }
    }
  }

  @Test
  void aSliceOfALargerArrayBreaksAsItsOwnBody() {
    byte[] array = concat("skip me\nfirst\r\nsecond\nskip too");
    int offset = "skip me\n".length();
    int length = "first\r\nsecond\n".length();
    EventBreaker.Result result =
        new EventBreaker(plain(0), "h", "src", NOW).breakEvents(array, offset, length);
    assertThat(raws(result)).containsExactly("first", "second");
  }

  @Test
  void mergedLinesOverBytesJoinWithLineFeeds() {
    Sourcetype merging =
        Sourcetype.from("t", new SourcetypeSettings.Builder().breakOnlyBefore("^START").build());
    byte[] body = concat("START é\r\n  more\r\nSTART ", bytes(0xE2, 0x82), "\nlast");
    EventBreaker.Result result = breakBytes(merging, body);
    assertThat(raws(result)).containsExactly("START é\n  more", "START \uFFFD\nlast");
    assertThat(asciis(result)).containsOnlyNulls();
  }
}
