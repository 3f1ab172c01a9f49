package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** A timestamp prefix that is plain text is found without a regex, with the regex's answer. */
class TimestampRulePrefixTest {
  @Test
  void plainTextPrefixesAreRecognised() {
    assertThat(TimestampRule.literal("\\[")).isEqualTo("[");
    assertThat(TimestampRule.literal("time=")).isEqualTo("time=");
    assertThat(TimestampRule.literal("\\] \\\"at ")).isEqualTo("] \"at ");
    for (String regex : List.of("\\d+", "a.b", "[x]", "(a)", "a|b", "\\Qa\\E", "x*", "")) {
      assertThat(TimestampRule.literal(regex)).as(regex).isNull();
    }
  }

  @Test
  void aPlainPrefixFindsWhatItsRegexFinds() {
    Instant now = Instant.parse("2026-01-08T00:00:00Z");
    Optional<StrptimeFormat> format = Optional.of(StrptimeFormat.compile("%d/%b/%Y:%H:%M:%S %z"));
    List<String> events =
        List.of(
            "1.2.3.4 - - [07/Jan/2026:10:11:12 +0000] \"GET / HTTP/1.1\" 200 1",
            "[07/Jan/2026:10:11:13 +0100] at the start",
            "no bracket 07/Jan/2026:10:11:14 +0000",
            "[broken] [07/Jan/2026:10:11:15 +0000]");
    for (String[] pair : new String[][] {{"\\[", "[\\[]"}, {"^\\[", "^[\\[]"}}) {
      TimestampRule plain =
          new TimestampRule(Optional.of(Pattern.compile(pair[0])), format, 40, ZoneOffset.UTC);
      TimestampRule regex =
          new TimestampRule(Optional.of(Pattern.compile(pair[1])), format, 40, ZoneOffset.UTC);
      for (String event : events) {
        assertThat(plain.find(event, "s", now))
            .as(pair[0] + " on " + event)
            .isEqualTo(regex.find(event, "s", now));
      }
    }
    TimestampRule anywhere =
        new TimestampRule(Optional.of(Pattern.compile("\\[")), format, 40, ZoneOffset.UTC);
    assertThat(anywhere.find(events.get(0), "s", now)).isPresent();
    assertThat(anywhere.find(events.get(2), "s", now)).isEmpty();
  }
}
