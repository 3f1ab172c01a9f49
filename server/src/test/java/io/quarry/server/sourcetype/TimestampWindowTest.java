package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The time of an event held as ASCII bytes is parsed from the bytes in place ({@link
 * TimestampRule#findAscii}): the same answer as over the whole text as a {@code String}, for rules
 * with no prefix (automatic and with a format), a plain-text prefix anywhere or anchored, over
 * random lines with timestamps at random places, cut anywhere, with other bytes around the line; a
 * prefix expression reads the whole text.
 */
class TimestampWindowTest {
  private static final Instant NOW = Instant.parse("2026-01-08T00:00:00Z");
  private static final String[] PIECES = {
    "[07/Jan/2026:10:11:12 +0000]",
    "07/Jan/2026:10:11:13 +0100",
    "2026-01-07T10:11:14Z",
    "2026-01-07 10:11:15,123",
    "Jan  7 10:11:16",
    "1767780676",
    "[",
    "]",
    " ",
    "time=",
    "GET /a?b=1 HTTP/1.1",
    "1.2.3.4 - -",
    "x",
    "07/Jan/20",
  };

  @Test
  void theBytesAnswerAsTheWholeText() {
    Optional<StrptimeFormat> access = Optional.of(StrptimeFormat.compile("%d/%b/%Y:%H:%M:%S %z"));
    // automatic recognition remembers a hint per source: the whole texts and the windows each go
    // to their own instances of the rules, which see the same history (the same sources, in order)
    List<TimestampRule> rules = rules(access);
    List<TimestampRule> byteRules = rules(access);
    Random random = new Random(33);
    int longer = 0;
    int found = 0;
    for (int round = 0; round < 20_000; round++) {
      StringBuilder line = new StringBuilder();
      int pieces = random.nextInt(8);
      for (int p = 0; p < pieces; p++) {
        line.append(PIECES[random.nextInt(PIECES.length)]);
      }
      String text = line.toString();
      byte[] body = ("ab\n" + text + "\ncd").getBytes(StandardCharsets.US_ASCII);
      for (int r = 0; r < rules.size(); r++) {
        TimestampRule rule = rules.get(r);
        String source = "s" + random.nextInt(3);
        OptionalLong whole = rule.find(text, source, NOW);
        OptionalLong fromBytes = byteRules.get(r).findAscii(body, 3, text.length(), source, NOW);
        assertThat(fromBytes).as("%s over [%s]", rule.prefix(), text).isEqualTo(whole);
        longer += text.length() > rule.lookahead() ? 1 : 0;
        found += whole.isPresent() ? 1 : 0;
      }
    }
    assertThat(longer).as("texts longer than the lookahead").isGreaterThan(10_000);
    assertThat(found).as("times found").isGreaterThan(10_000);
    TimestampRule expression =
        new TimestampRule(Optional.of(Pattern.compile("\\d+ ")), access, 28, ZoneOffset.UTC);
    assertThat(expression.findAscii(new byte[] {'1', ' ', 'x'}, 0, 3, "s", NOW)).isNull();
  }

  /** New instances of the rules the test reads times with (each with no history). */
  private static List<TimestampRule> rules(Optional<StrptimeFormat> access) {
    return List.of(
        TimestampRule.automatic(),
        new TimestampRule(Optional.empty(), access, 28, ZoneOffset.UTC),
        new TimestampRule(Optional.of(Pattern.compile("\\[")), access, 28, ZoneOffset.UTC),
        new TimestampRule(Optional.of(Pattern.compile("^\\[")), access, 40, ZoneOffset.UTC),
        new TimestampRule(
            Optional.of(Pattern.compile("time=")), Optional.empty(), 30, ZoneOffset.UTC),
        new TimestampRule(
            Optional.of(Pattern.compile("\\[")), Optional.empty(), 5, ZoneOffset.UTC));
  }

  @Test
  void theAccessLogSourcetypeReadsItsTimeFromTheBytes() {
    Sourcetype access = Sourcetypes.builtIn().forName("access_combined");
    String line =
        "10.1.2.3 - - [07/Jan/2026:10:11:12 +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"curl/8\"";
    byte[] body = ("\n" + line).getBytes(StandardCharsets.US_ASCII);
    OptionalLong fromBytes = access.asciiTimestamp(body, 1, line.length(), "s", NOW);
    assertThat(fromBytes).isNotNull().isEqualTo(access.timestamp(line, NOW)).isPresent();
  }
}
