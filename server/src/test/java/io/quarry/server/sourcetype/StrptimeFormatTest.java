package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StrptimeFormatTest {
  private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

  private static OptionalLong parse(String format, String text, ZoneId zone) {
    return new TimestampRule(
            Optional.empty(), Optional.of(StrptimeFormat.compile(format)), 64, zone)
        .find(text, "test", NOW);
  }

  private static String iso(OptionalLong micros) {
    assertThat(micros).isPresent();
    return Instant.ofEpochSecond(0, micros.getAsLong() * 1000).toString();
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "%Y-%m-%d %H:%M:%S,%3N | 2015-10-18 18:01:47,978 rest | 2015-10-18T18:01:47.978Z",
        "%d/%b/%Y:%H:%M:%S %z | 07/Jan/2026:10:00:01 +0200 | 2026-01-07T08:00:01Z",
        "%Y-%m-%dT%H:%M:%S%.N%?z | 2026-01-07T00:00:01.123456789-05:30 | 2026-01-07T05:30:01.123456Z",
        "%Y-%m-%dT%H:%M:%S%.N%?z | 2026-01-07T00:00:01 | 2026-01-07T00:00:01Z",
        "%y%m%d %H%M%S | 081109 203615 148 INFO | 2008-11-09T20:36:15Z",
        "%m/%d/%Y %I:%M:%S %p | 3/4/2026 12:05:00 AM | 2026-03-04T00:05:00Z",
        "%m/%d/%Y %I:%M:%S %p | 03/04/2026 1:05:00 pm | 2026-03-04T13:05:00Z",
        "%a %b %d %H:%M:%S %Y | Sun Dec 04 04:47:44 2005 | 2005-12-04T04:47:44Z",
        "%A, %d %B %Y %T | Monday, 09 March 2026 08:00:00 | 2026-03-09T08:00:00Z",
        "%s | 1117838570.675872 x | 2005-06-03T22:42:50.675872Z",
        "%F %T %Z | 2026-01-07 10:00:00 Europe/Berlin | 2026-01-07T09:00:00Z",
        "%j/%Y %H:%M | 032/2026 10:00 | 2026-02-01T10:00:00Z",
        "%Y%m%d-%H:%M:%S:%L | 20171223-9:5:7:6 | 2017-12-23T09:05:07.006Z",
        "%% %Y-%m-%d %H | % 2026-01-02 03 | 2026-01-02T03:00:00Z"
      })
  void parses(String format, String text, String expected) {
    assertThat(iso(parse(format, text, ZoneOffset.UTC))).isEqualTo(expected);
  }

  @Test
  void aYearlessDateTakesTheYearThatPutsItBeforeNow() {
    // March 10 now: Jan 5 is this year, Dec 30 is last year, March 11 (a day ahead) this year
    assertThat(iso(parse("%b %d %H:%M:%S", "Jan  5 10:00:00", ZoneOffset.UTC)))
        .isEqualTo("2026-01-05T10:00:00Z");
    assertThat(iso(parse("%b %d %H:%M:%S", "Dec 30 10:00:00", ZoneOffset.UTC)))
        .isEqualTo("2025-12-30T10:00:00Z");
    assertThat(iso(parse("%b %d %H:%M:%S", "Mar 11 10:00:00", ZoneOffset.UTC)))
        .isEqualTo("2026-03-11T10:00:00Z");
  }

  @Test
  void theSourcetypeZoneAppliesOnlyWithoutAnOffsetInTheText() {
    ZoneId berlin = ZoneId.of("Europe/Berlin");
    assertThat(iso(parse("%Y-%m-%d %H:%M:%S", "2026-07-01 12:00:00", berlin)))
        .isEqualTo("2026-07-01T10:00:00Z"); // summer time
    assertThat(iso(parse("%Y-%m-%d %H:%M:%S", "2026-01-01 12:00:00", berlin)))
        .isEqualTo("2026-01-01T11:00:00Z");
    assertThat(iso(parse("%Y-%m-%d %H:%M:%S %z", "2026-01-01 12:00:00 +0000", berlin)))
        .isEqualTo("2026-01-01T12:00:00Z");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "%Y-%m-%d | 2026-02-30",
        "%Y-%m-%d | 2026-13-01",
        "%H:%M:%S | 24:00:00",
        "%Y-%m-%d | 26-01-01",
        "%b %d | Foo 12",
        "%s | 123456789",
        "%s | 12345678901",
        "%Y-%m-%d %H | 2026-01-01"
      })
  void rejectsWhatIsNotThatFormat(String format, String text) {
    assertThat(parse(format, text, ZoneOffset.UTC)).isEmpty();
  }

  @Test
  void compileErrorsNameTheDirective() {
    assertThatThrownBy(() -> StrptimeFormat.compile("%Y-%q"))
        .hasMessageContaining("unknown directive %q");
    assertThatThrownBy(() -> StrptimeFormat.compile("%Y %")).hasMessageContaining("lone %");
    assertThatThrownBy(() -> StrptimeFormat.compile("%4Y")).hasMessageContaining("only N");
    assertThatThrownBy(() -> StrptimeFormat.compile("abc")).hasMessageContaining("neither");
  }

  @Test
  void automaticRecognitionFindsATimestampAfterOtherTextAndRemembersWhereItWas() {
    TimestampRule auto = TimestampRule.automatic();
    assertThat(iso(auto.find("<34>1 2026-03-01T10:00:00.5Z host app - -", "s1", NOW)))
        .isEqualTo("2026-03-01T10:00:00.500Z");
    assertThat(iso(auto.find("[pid 42] at 2026/03/01 10:00:01 started", "s2", NOW)))
        .isEqualTo("2026-03-01T10:00:01Z");
    assertThat(iso(auto.find("[pid 43] at 2026/03/01 10:00:02 started", "s2", NOW)))
        .isEqualTo("2026-03-01T10:00:02Z");
    assertThat(auto.find("no time in here at all", "s3", NOW)).isEmpty();
  }
}
