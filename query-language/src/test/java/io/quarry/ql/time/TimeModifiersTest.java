package io.quarry.ql.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TimeModifiersTest {
  // Wednesday 2026-01-07 13:45:30.5 UTC
  private static final Instant NOW = Instant.parse("2026-01-07T13:45:30.500Z");

  private static String resolve(String modifier) {
    long micros = TimeModifiers.resolveMicros(modifier, NOW, ZoneOffset.UTC);
    return Instant.ofEpochSecond(0, micros * 1000).toString();
  }

  @Test
  void relativeAndSnapped() {
    assertThat(resolve("now")).isEqualTo("2026-01-07T13:45:30.500Z");
    assertThat(resolve("-24h")).isEqualTo("2026-01-06T13:45:30.500Z");
    assertThat(resolve("-24h@h")).isEqualTo("2026-01-06T13:00:00Z");
    assertThat(resolve("@d")).isEqualTo("2026-01-07T00:00:00Z");
    assertThat(resolve("-7d@d")).isEqualTo("2025-12-31T00:00:00Z");
    assertThat(resolve("@w0")).isEqualTo("2026-01-04T00:00:00Z");
    assertThat(resolve("@w1")).isEqualTo("2026-01-05T00:00:00Z");
    assertThat(resolve("-1mon@mon")).isEqualTo("2025-12-01T00:00:00Z");
    assertThat(resolve("@q")).isEqualTo("2026-01-01T00:00:00Z");
    assertThat(resolve("+15m")).isEqualTo("2026-01-07T14:00:30.500Z");
    assertThat(resolve("-m")).isEqualTo("2026-01-07T13:44:30.500Z");
  }

  @Test
  void chainedStepsApplyLeftToRight() {
    assertThat(resolve("-1d@d+8h")).isEqualTo("2026-01-06T08:00:00Z");
    assertThat(resolve("@d+9h")).isEqualTo("2026-01-07T09:00:00Z");
    assertThat(resolve("@d-1s")).isEqualTo("2026-01-06T23:59:59Z");
    assertThat(resolve("@w1+9h+30m")).isEqualTo("2026-01-05T09:30:00Z");
    assertThat(resolve("-1d-2h")).isEqualTo("2026-01-06T11:45:30.500Z");
    assertThat(resolve("@mon-1d@d")).isEqualTo("2025-12-31T00:00:00Z");
    assertThatThrownBy(() -> resolve("-1d@d+"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("-1d@d+8h");
    assertThatThrownBy(() -> resolve("-1d@d 8h")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void absoluteAndEpoch() {
    assertThat(resolve("01/07/2026:00:00:00")).isEqualTo("2026-01-07T00:00:00Z");
    assertThat(resolve("1767744000")).isEqualTo("2026-01-07T00:00:00Z");
    assertThat(resolve("1767744000.25")).isEqualTo("2026-01-07T00:00:00.250Z");
  }

  @Test
  void rejectsNonsenseWithAReason() {
    assertThatThrownBy(() -> resolve("yesterday")).hasMessageContaining("is not a time modifier");
    assertThatThrownBy(() -> resolve("-3fortnights"))
        .hasMessageContaining("unknown time unit 'fortnights'");
    assertThatThrownBy(() -> resolve("13/45/2026:00:00:00")).hasMessageContaining("is not a time");
  }
}
