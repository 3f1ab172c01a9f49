package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import io.quarry.server.ingest.RawEventBreaker;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Breaks real Loghub logs with their sourcetype and checks every event's timestamp against Loghub's
 * own structured parse of the same line.
 */
class LoghubTimestampTest {
  private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

  @ParameterizedTest
  @CsvSource({
    "Apache_2k, apache_error, 1, EEE MMM dd HH:mm:ss yyyy",
    "Linux_2k, syslog, 1, MMM d HH:mm:ss",
    "OpenSSH_2k, linux_secure, 1, MMM d HH:mm:ss"
  })
  void everyEventGetsTheTimestampLoghubParsed(
      String name, String sourcetype, int firstColumn, String pattern) throws IOException {
    List<Event> events;
    try (InputStream raw = resource("/io/quarry/server/demo/" + name + ".log")) {
      events = new RawEventBreaker(sourcetype, "h", "s", NOW).breakEvents(raw);
    }
    List<String> expected = new ArrayList<>();
    try (BufferedReader csv =
        new BufferedReader(
            new InputStreamReader(
                resource("/loghub/" + name + ".log_structured.csv"), StandardCharsets.UTF_8))) {
      csv.readLine();
      String line;
      while ((line = csv.readLine()) != null) {
        String[] columns = line.split(",", -1);
        expected.add(
            pattern.startsWith("EEE")
                ? columns[firstColumn]
                : columns[firstColumn]
                    + " "
                    + columns[firstColumn + 1]
                    + " "
                    + columns[firstColumn + 2]);
      }
    }
    DateTimeFormatter format =
        DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withZone(ZoneOffset.UTC);
    Function<Event, String> rendered =
        e -> format.format(Instant.ofEpochSecond(0, e.timeMicros() * 1000));
    assertThat(events).hasSize(expected.size());
    for (int i = 0; i < events.size(); i++) {
      assertThat(rendered.apply(events.get(i)))
          .as("%s line %d: %s", name, i + 1, events.get(i).raw())
          .isEqualTo(expected.get(i));
    }
  }

  private static InputStream resource(String path) {
    InputStream in = LoghubTimestampTest.class.getResourceAsStream(path);
    assertThat(in).as(path).isNotNull();
    return in;
  }
}
