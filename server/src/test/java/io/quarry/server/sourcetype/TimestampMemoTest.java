package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.AsciiText;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The remembered timestamp ({@link TimestampMemo}, through {@link TimestampRule#findAscii} with a
 * scratch held across events) against a fresh parse of every event (a new scratch each time, so
 * nothing remembered, on a twin rule with its own hints): over every loghub system's lines with its
 * built-in rule and with automatic recognition, every line cut at every length, made-up user
 * formats, and sequences made to catch a wrong answer from memory (the same text under another
 * rule's zone or another {@code now}, at another place in the line, differing in its last byte,
 * alternating with another). And the bound the memory rests on ({@link StrptimeMatch#LOOK_PAST})
 * checked over every line at every position for every format, built-in and made-up.
 */
class TimestampMemoTest {
  private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

  private static final List<String> SYSTEMS =
      LoghubTimestampTest.systems().stream().map(LoghubTimestampTest.System::name).toList();

  static List<String> systems() {
    return SYSTEMS;
  }

  /**
   * Feeds lines to a rule through one held scratch and checks each answer against a fresh parse: a
   * new scratch each time, on a twin of the rule (the same settings, its own automatic-recognition
   * hints) fed the same lines. The twin's hints follow the rule's, but the rule meets each line
   * with its own hint, as production does: a line where the hint fails finds the hint that gave the
   * remembered parse still in memory, and searches.
   */
  private static final class Differential {
    private final ParseScratch held = new ParseScratch();
    private final Map<TimestampRule, TimestampRule> twins = new IdentityHashMap<>();
    private int compared;
    private int remembered;

    void check(TimestampRule rule, String line, String source, Instant now) {
      byte[] bytes = ("<" + line + ">").getBytes(StandardCharsets.ISO_8859_1);
      check(rule, bytes, 1, line.length(), source, now);
    }

    void check(TimestampRule rule, byte[] bytes, int offset, int length, String source, Instant n) {
      TimestampRule twin =
          twins.computeIfAbsent(
              rule, r -> new TimestampRule(r.prefix(), r.format(), r.lookahead(), r.zone()));
      OptionalLong fresh = twin.findAscii(bytes, offset, length, source, n, new ParseScratch());
      int hitsBefore = held.timestamps.hits();
      OptionalLong memo = rule.findAscii(bytes, offset, length, source, n, held);
      String text = new String(bytes, offset, length, StandardCharsets.ISO_8859_1);
      assertThat(memo).as("%s at %s: %s", rule.format(), n, text).isEqualTo(fresh);
      compared++;
      remembered += held.timestamps.hits() - hitsBefore;
    }
  }

  private static List<String> asciiLines(String system) throws IOException {
    List<String> lines = new ArrayList<>();
    for (String line : text("/loghub/" + system + "_2k.log").lines().toList()) {
      byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
      if (bytes.length == line.length() && AsciiText.isAscii(bytes, 0, bytes.length)) {
        lines.add(line);
      }
    }
    return lines;
  }

  private static List<TimestampRule> rules(String system) {
    LoghubTimestampTest.System known =
        LoghubTimestampTest.systems().stream()
            .filter(s -> s.name().equals(system))
            .findFirst()
            .orElseThrow();
    return List.of(
        Sourcetypes.builtIn().forName(known.sourcetype()).timestampRule(),
        Sourcetypes.builtIn()
            .forName("memo_unknown_" + system.toLowerCase(Locale.ROOT))
            .timestampRule());
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("systems")
  void everyLineAsAFreshParseGivesIt(String system) throws IOException {
    List<String> lines = asciiLines(system);
    int remembered = 0;
    for (TimestampRule rule : rules(system)) {
      Differential differential = new Differential();
      for (String line : lines) {
        differential.check(rule, line, system, NOW);
      }
      assertThat(differential.compared).isEqualTo(lines.size());
      remembered += differential.remembered;
    }
    if (!List.of("BGL", "HPC", "Thunderbird").contains(system)) {
      // neighbouring lines share their timestamp text: memory must actually answer (the three
      // epoch logs are samples far apart, no two neighbours in the same second)
      assertThat(remembered).as("%s answered from memory", system).isPositive();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("systems")
  void everyLineCutAtEveryLength(String system) throws IOException {
    List<String> lines = asciiLines(system).subList(0, 60);
    int remembered = 0;
    for (TimestampRule rule : rules(system)) {
      Differential differential = new Differential();
      for (String line : lines) {
        // longest first: each cut shares every byte of the one before but the room to read
        for (int length = line.length(); length >= 1; length--) {
          differential.check(rule, line.substring(0, length), system, NOW);
        }
        for (int length = 1; length <= line.length(); length++) {
          differential.check(rule, line.substring(0, length), system, NOW);
        }
      }
      remembered += differential.remembered;
    }
    // a line cut anywhere past its timestamp's window reads as the cut before it (a built-in rule
    // with a prefix expression answers on the String path, not here: automatic recognition does)
    assertThat(remembered).as("%s answered from memory", system).isPositive();
  }

  @Test
  void linesOfEverySystemInterleavedUnderOneAutomaticRule() throws IOException {
    List<List<String>> all = new ArrayList<>();
    for (String system : SYSTEMS) {
      all.add(asciiLines(system));
    }
    TimestampRule rule = TimestampRule.automatic();
    Differential differential = new Differential();
    for (int i = 0; i < 300; i++) {
      for (List<String> lines : all) {
        // each system's line twice, so the hint found for the first answers the second from
        // memory, and the next system's line replaces the hint
        differential.check(rule, lines.get(i), "one-source", NOW);
        differential.check(rule, lines.get(i), "one-source", NOW);
      }
    }
    assertThat(differential.remembered).isPositive();
  }

  @Test
  void theSameTextUnderAnotherZoneIsParsedForThatZone() {
    StrptimeFormat noZone = StrptimeFormat.compile("%Y-%m-%d %H:%M:%S");
    TimestampRule utc = rule(noZone, ZoneOffset.UTC, 32);
    TimestampRule berlin = rule(noZone, ZoneId.of("Europe/Berlin"), 32);
    Differential differential = new Differential();
    String line = "2026-07-01 12:00:00 GET /";
    for (int i = 0; i < 4; i++) {
      differential.check(utc, line, "s", NOW);
      differential.check(utc, line, "s", NOW);
      differential.check(berlin, line, "s", NOW);
    }
    ParseScratch scratch = new ParseScratch();
    byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
    long inUtc = utc.findAscii(bytes, 0, bytes.length, "s", NOW, scratch).getAsLong();
    long inBerlin = berlin.findAscii(bytes, 0, bytes.length, "s", NOW, scratch).getAsLong();
    assertThat(inUtc - inBerlin).isEqualTo(2 * 3_600_000_000L); // CEST is UTC+2 in July
    assertThat(differential.remembered).isPositive();
  }

  @Test
  void theSameTextUnderAnotherNowTakesItsYearFromThatNow() {
    TimestampRule syslog = rule(StrptimeFormat.compile("%b %d %H:%M:%S"), ZoneOffset.UTC, 32);
    Instant newYear = Instant.parse("2027-01-01T00:00:10Z");
    Instant december = Instant.parse("2026-12-31T23:59:59Z");
    Differential differential = new Differential();
    String line = "Jan 01 00:00:05 host sshd[1]: Accepted";
    for (int i = 0; i < 3; i++) {
      differential.check(syslog, line, "s", newYear);
      differential.check(syslog, line, "s", newYear);
      differential.check(syslog, line, "s", december); // two days ahead at most: this year
      differential.check(
          syslog, "Jan 01 00:00:05 other text", "s", Instant.parse("2026-06-01T00:00:00Z"));
    }
    assertThat(differential.remembered).isPositive();
  }

  @Test
  void theSameTextAtAnotherPlaceInTheLine() {
    TimestampRule bracketed =
        new TimestampRule(
            Optional.of(Pattern.compile("\\[")),
            Optional.of(StrptimeFormat.compile("%d/%b/%Y:%H:%M:%S %z")),
            28,
            ZoneOffset.UTC);
    Differential differential = new Differential();
    String stamp = "[07/Jan/2026:00:00:01 +0000]";
    String[] lines = {
      "1.2.3.4 - - " + stamp + " \"GET / HTTP/1.1\" 200 1",
      "10.20.30.40 - frank " + stamp + " \"GET / HTTP/1.1\" 200 1",
      stamp,
      "x " + stamp,
      "x " + stamp.substring(0, stamp.length() - 1),
      "x " + stamp.substring(0, stamp.length() - 2),
      "1.2.3.4 - - " + stamp + "\"",
    };
    for (int round = 0; round < 3; round++) {
      for (String line : lines) {
        differential.check(bracketed, line, "s", NOW);
        differential.check(bracketed, line, "s", NOW);
      }
    }
    // automatic recognition: the hint's offset from the start, the text elsewhere in another line
    TimestampRule automatic = TimestampRule.automatic();
    for (int round = 0; round < 3; round++) {
      differential.check(automatic, "2026-01-07 00:00:01 INFO a", "s", NOW);
      differential.check(automatic, "2026-01-07 00:00:01 INFO a", "s", NOW);
      differential.check(automatic, "xx 2026-01-07 00:00:01 INFO a", "s", NOW);
      differential.check(automatic, "x 2026-01-07 00:00:01 INFO a", "s", NOW);
      differential.check(automatic, "2026-01-07 00:00:01", "s", NOW);
    }
    assertThat(differential.remembered).isPositive();
  }

  @Test
  void textsThatDifferInTheirLastByteOrAlternate() {
    TimestampRule iso = TimestampRule.automatic();
    TimestampRule access = Sourcetypes.builtIn().forName("access_combined").timestampRule();
    Differential differential = new Differential();
    String[] isoTexts = {
      "2026-01-07T00:00:01Z a",
      "2026-01-07T00:00:01Z a",
      "2026-01-07T00:00:02Z a",
      "2026-01-07T00:00:01+01:00 a",
      "2026-01-07T00:00:01+01:30 a",
      "2026-01-07T00:00:01+01:3 a",
      "2026-01-07T00:00:01 +19:30 a", // %?z looks seven past and finds no offset
      "2026-01-07T00:00:01 +18:30 a",
      "2026-01-07T00:00:01.5 a",
      "2026-01-07T00:00:01.50 a",
      "2026-01-07T00:00:01. a",
      "2026-01-07T00:00:01,1 a",
      "2026-01-07T00:00:01",
      "2026-01-07T00:00:01 ",
      "2026-01-07T00:00:01 +",
      "2026-01-07T00:00:01 +0",
      "2026-01-07T00:00:01 +05",
      "2026-01-07T00:00:01 +05:",
      "2026-01-07T00:00:01 +05:3",
      "2026-01-07T00:00:01 +05:30",
      "1767744001 epoch",
      "1767744001.25 epoch",
      "1767744001. epoch",
      "17677440012 epoch",
    };
    String[] accessTexts = {
      "1.1.1.1 - - [07/Jan/2026:00:00:01 +0000] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [07/Jan/2026:00:00:01 +0001] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [07/Jan/2026:00:00:01 +0000] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [07/Jan/2026:00:00:02 +0000] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [07/Jan/2026:00:00:01 -0000] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [07/Jan/2026:00:00:01 +00] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [07/Jan/2026:00:00:01 +0000",
      "1.1.1.1 - - [07/Jan/2026:00:00:01 +000",
      "1.1.1.1 - - [07/Jan/2026:00:00:01 +00:00] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [07/Feb/2026:00:00:01 +0000] \"GET / HTTP/1.1\" 200 1",
      "1.1.1.1 - - [30/Feb/2026:00:00:01 +0000] \"GET / HTTP/1.1\" 200 1",
    };
    for (int round = 0; round < 3; round++) {
      for (int i = 0; i < isoTexts.length; i++) {
        differential.check(iso, isoTexts[i], "s", NOW);
        differential.check(iso, isoTexts[(i + 1) % isoTexts.length], "s", NOW);
        differential.check(iso, isoTexts[i], "s", NOW);
      }
      for (int i = 0; i < accessTexts.length; i++) {
        differential.check(access, accessTexts[i], "s", NOW);
        differential.check(access, accessTexts[0], "s", NOW);
        differential.check(access, accessTexts[i], "s", NOW);
      }
    }
    assertThat(differential.remembered).isPositive();
  }

  /**
   * Memory answers only the parse it saw: the same rule, hint object, {@code now}, bytes and room.
   * (A hint replaced by another thread, or by a search after the hint failed, is another object: no
   * two of today's automatic formats read the same bytes as different instants, so no sequence of
   * lines shows the difference; the contract is checked here directly.)
   */
  @Test
  void memoryAnswersOnlyTheParseItSaw() {
    TimestampRule rule = TimestampRule.automatic();
    TimestampRule other = TimestampRule.automatic();
    Object hint = new Object();
    byte[] text = "..2026-01-07 00:00:01 INFO".getBytes(StandardCharsets.ISO_8859_1);
    TimestampMemo memo = new TimestampMemo();
    assertThat(memo.recall(rule, hint, text, 2, 24, NOW)).isEqualTo(TimestampMemo.MISS);
    memo.remember(rule, hint, text, 2, 24, 10, NOW, 42L); // the date: 10 + 8 bytes kept
    assertThat(memo.recall(rule, hint, text, 2, 24, NOW)).isEqualTo(42L);
    assertThat(memo.recall(rule, hint, text, 2, 27, NOW)).isEqualTo(42L); // room past the window
    assertThat(memo.recall(rule, new Object(), text, 2, 24, NOW)).isEqualTo(TimestampMemo.MISS);
    assertThat(memo.recall(other, hint, text, 2, 24, NOW)).isEqualTo(TimestampMemo.MISS);
    assertThat(memo.recall(rule, hint, text, 2, 24, NOW.plusNanos(1000)))
        .isEqualTo(TimestampMemo.MISS);
    assertThat(memo.recall(rule, hint, text, 1, 25, NOW)).isEqualTo(TimestampMemo.MISS);
    memo.remember(rule, hint, text, 2, 22, 19, NOW, 43L); // the window ran into the limit
    assertThat(memo.recall(rule, hint, text, 2, 22, NOW)).isEqualTo(43L);
    assertThat(memo.recall(rule, hint, text, 2, 23, NOW)).isEqualTo(TimestampMemo.MISS);
    assertThat(memo.recall(rule, hint, text, 2, 21, NOW)).isEqualTo(TimestampMemo.MISS);
    // a null now is a now like any other: equal only to itself
    assertThat(memo.recall(rule, hint, text, 2, 22, null)).isEqualTo(TimestampMemo.MISS);
    memo.remember(rule, hint, text, 2, 24, 10, null, 44L);
    assertThat(memo.recall(rule, hint, text, 2, 24, NOW)).isEqualTo(TimestampMemo.MISS);
    assertThat(memo.recall(rule, hint, text, 2, 24, null)).isEqualTo(44L);
    assertThat(memo.hits()).isEqualTo(4);
  }

  /**
   * Made-up formats a user may write, beside the automatic and built-in ones: {@code %j} and {@code
   * %e} (which none of those has), {@code %I} with {@code %p} last, {@code %L} and {@code %3N}
   * last, {@code %z} after a space, a time without a date, and a format ending in a space.
   */
  private static final List<StrptimeFormat> USER_FORMATS =
      List.of(
          StrptimeFormat.compile("%Y-%j %H:%M:%S"),
          StrptimeFormat.compile("%b %e %H:%M:%S %Y"),
          StrptimeFormat.compile("%e.%m.%Y %I:%M %p"),
          StrptimeFormat.compile("%Y-%m-%d %H:%M:%S.%L"),
          StrptimeFormat.compile("%d/%m/%y %H:%M:%S,%3N"),
          StrptimeFormat.compile("%Y-%m-%d %H:%M:%S %z"),
          StrptimeFormat.compile("%T"),
          StrptimeFormat.compile("%Y-%m-%d %H:%M:%S "));

  /** Texts the user formats match, with what may follow the match (or nothing). */
  private static final List<String> USER_TEXTS =
      List.of(
          "2026-007 00:00:01 more",
          "2026-7 00:00:01x",
          "2026-366 00:00:01",
          "Jan  7 00:00:01 2026 more",
          "Jan 17 00:00:01 20261",
          "7.01.2026 12:05 AM more",
          "17.01.2026 1:05 pm",
          "07.01.2026 11:05 px",
          "2026-01-07 00:00:01.5 x",
          "2026-01-07 00:00:01.123456 x",
          "2026-01-07 00:00:01.12",
          "07/01/26 00:00:01,123 x",
          "07/01/26 00:00:01,1234",
          "07/01/26 00:00:01,12 x",
          "2026-01-07 00:00:01 +05:3x",
          "2026-01-07 00:00:01 +0530 x",
          "2026-01-07 00:00:01 Z",
          "00:00:01 only a time",
          "2026-01-07 00:00:01    more",
          "2026-01-07 00:00:01 ",
          "2026-01-07 00:00:01 x");

  /**
   * {@link StrptimeMatch#LOOK_PAST}: wherever a format matches, it read nothing at or past {@code
   * end + LOOK_PAST}, and a limit of {@code end + LOOK_PAST} gives the same match and instant (so
   * no check against the limit past it changed the answer).
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("systems")
  void noFormatLooksFurtherPastItsMatchThanLookPast(String system) throws IOException {
    List<StrptimeFormat> formats = new ArrayList<>(TimestampRule.AUTOMATIC);
    for (Sourcetype sourcetype : Sourcetypes.builtIn().known().values()) {
      sourcetype.timestampRule().format().ifPresent(formats::add);
    }
    formats.addAll(USER_FORMATS);
    List<String> texts = new ArrayList<>(asciiLines(system).subList(0, 200));
    for (String offset : List.of("+19:30x", "+05:3x", "+05x", " +19:30", " +05:3", ".", ",x")) {
      texts.add("2026-01-07T00:00:01" + offset + " more text after it");
      texts.add("2026-01-07 00:00:01" + offset + " more text after it");
    }
    texts.add("1767744001.x more");
    texts.add("Jan  7 00:00:01 more");
    for (String text : USER_TEXTS) {
      texts.add(text);
      texts.add(text + " and more text after it");
    }
    int matched = 0;
    Map<StrptimeFormat, Integer> userMatches = new IdentityHashMap<>();
    for (String text : texts) {
      for (StrptimeFormat format : formats) {
        for (int at = 0; at < Math.min(text.length(), 48); at++) {
          Reads reads = new Reads(text);
          StrptimeFormat.Parsed parsed = new StrptimeFormat.Parsed();
          int end = format.parse(reads, at, text.length(), parsed);
          if (end < 0) {
            continue;
          }
          matched++;
          userMatches.merge(format, 1, Integer::sum);
          long micros = format.toMicros(parsed, ZoneOffset.UTC, NOW);
          assertThat(reads.furthest)
              .as("%s at %d of %s", format, at, text)
              .isLessThan(end + StrptimeMatch.LOOK_PAST);
          int bound = Math.min(text.length(), end + StrptimeMatch.LOOK_PAST);
          StrptimeFormat.Parsed again = new StrptimeFormat.Parsed();
          assertThat(format.parse(text, at, bound, again))
              .as("%s at %d of %s", format, at, text)
              .isEqualTo(end);
          assertThat(format.toMicros(again, ZoneOffset.UTC, NOW)).isEqualTo(micros);
        }
      }
    }
    assertThat(matched).isPositive();
    for (StrptimeFormat format : USER_FORMATS) {
      assertThat(userMatches.getOrDefault(format, 0)).as("%s matched", format).isGreaterThan(1);
    }
  }

  /**
   * The user formats through a rule each: the held scratch's answers against fresh parses, over the
   * texts cut at every length (so the remembered window runs into the line's end), and the same
   * under a lookahead that ends inside or just past the timestamp.
   */
  @Test
  void userFormatsFromMemoryAsAFreshParse() {
    Differential differential = new Differential();
    for (StrptimeFormat format : USER_FORMATS) {
      for (int lookahead : List.of(TimestampRule.DEFAULT_LOOKAHEAD, 20, 24, 27)) {
        TimestampRule rule = rule(format, ZoneOffset.UTC, lookahead);
        for (String text : USER_TEXTS) {
          for (int length = text.length(); length >= 1; length--) {
            differential.check(rule, text.substring(0, length), "s", NOW);
            differential.check(rule, text.substring(0, length), "s", NOW);
          }
          differential.check(rule, text + " and a longer tail", "s", NOW);
          differential.check(rule, text, "s", NOW);
        }
      }
    }
    assertThat(differential.remembered).isPositive();
  }

  /**
   * Without a caller's scratch a parse keeps no memory: the thread's own scratch holds none, so no
   * thread keeps the last rule it parsed with (and that rule's hints) alive after a reload.
   */
  @Test
  void theThreadsOwnScratchRemembersNothing() {
    TimestampRule rule = TimestampRule.automatic();
    byte[] line = "2026-01-07 00:00:01 INFO a".getBytes(StandardCharsets.ISO_8859_1);
    for (int i = 0; i < 3; i++) {
      assertThat(rule.findAscii(line, 0, line.length, "s", NOW))
          .isEqualTo(OptionalLong.of(1_767_744_001_000_000L));
    }
    Sourcetype builtIn = Sourcetypes.builtIn().forName("access_combined");
    byte[] access =
        "1.1.1.1 - - [07/Jan/2026:00:00:01 +0000] \"GET / HTTP/1.1\" 200 1"
            .getBytes(StandardCharsets.ISO_8859_1);
    assertThat(builtIn.asciiTimestamp(access, 0, access.length, "s", NOW))
        .isEqualTo(OptionalLong.of(1_767_744_001_000_000L));
    assertThat(TimestampRule.SCRATCH.get().timestamps).isNull();
    assertThat(new ParseScratch().timestamps).isNotNull();
  }

  /** A text that notes the furthest position read. */
  private static final class Reads implements CharSequence {
    private final String text;
    int furthest = -1;

    Reads(String text) {
      this.text = text;
    }

    @Override
    public int length() {
      return text.length();
    }

    @Override
    public char charAt(int index) {
      furthest = Math.max(furthest, index);
      return text.charAt(index);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      for (int i = start; i < end; i++) {
        charAt(i);
      }
      return text.subSequence(start, end);
    }

    @Override
    public String toString() {
      return text;
    }
  }

  private static TimestampRule rule(StrptimeFormat format, ZoneId zone, int lookahead) {
    return new TimestampRule(Optional.empty(), Optional.of(format), lookahead, zone);
  }

  private static String text(String resource) throws IOException {
    try (InputStream in = TimestampMemoTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
