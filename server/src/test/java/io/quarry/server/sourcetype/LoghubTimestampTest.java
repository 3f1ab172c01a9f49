package io.quarry.server.sourcetype;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.store.Event;
import io.quarry.server.ingest.EventBreaker;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Breaks the real logs of all 16 Loghub systems and checks every event's timestamp against Loghub's
 * own structured parse of the same line (the CSV beside each log): once with the system's built-in
 * sourcetype (an explicit format) and once as an unknown sourcetype (automatic recognition).
 *
 * <p>The expected text is rebuilt from the CSV's columns and compared with the event time rendered
 * in the same shape, so a system whose lines carry no year is checked on everything but the year
 * (the year rule has its own test in {@code StrptimeFormatTest}).
 */
class LoghubTimestampTest {
  private static final Instant NOW = Instant.parse("2026-11-22T00:00:00Z");

  /**
   * One system: its built-in sourcetype, the CSV columns holding the time (joined with a space) and
   * how to render an event's time in the same shape.
   */
  record System(String name, String sourcetype, int[] columns, Function<Long, String> render) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static Function<Long, String> pattern(String pattern) {
    DateTimeFormatter format =
        DateTimeFormatter.ofPattern(pattern, Locale.ROOT).withZone(ZoneOffset.UTC);
    return micros -> format.format(Instant.ofEpochSecond(0, micros * 1000));
  }

  private static final Function<Long, String> EPOCH = micros -> Long.toString(micros / 1_000_000);

  /** HealthApp writes hours, minutes, seconds and milliseconds without padding. */
  private static final Function<Long, String> HEALTHAPP =
      micros -> {
        var t = Instant.ofEpochSecond(0, micros * 1000).atOffset(ZoneOffset.UTC);
        return String.format(
            Locale.ROOT,
            "%04d%02d%02d-%d:%d:%d:%d",
            t.getYear(),
            t.getMonthValue(),
            t.getDayOfMonth(),
            t.getHour(),
            t.getMinute(),
            t.getSecond(),
            t.getNano() / 1_000_000);
      };

  static List<System> systems() {
    return List.of(
        new System("Android", "android", new int[] {1, 2}, pattern("MM-dd HH:mm:ss.SSS")),
        new System("Apache", "apache_error", new int[] {1}, pattern("EEE MMM dd HH:mm:ss yyyy")),
        new System("BGL", "bgl", new int[] {2}, EPOCH),
        new System("HDFS", "hdfs", new int[] {1, 2}, pattern("yyMMdd HHmmss")),
        new System("HPC", "hpc", new int[] {5}, EPOCH),
        new System("Hadoop", "hadoop", new int[] {1, 2}, pattern("yyyy-MM-dd HH:mm:ss,SSS")),
        new System("HealthApp", "healthapp", new int[] {1}, HEALTHAPP),
        new System("Linux", "syslog", new int[] {1, 2, 3}, pattern("MMM d HH:mm:ss")),
        new System("Mac", "mac_syslog", new int[] {1, 2, 3}, pattern("MMM d HH:mm:ss")),
        new System("OpenSSH", "linux_secure", new int[] {1, 2, 3}, pattern("MMM d HH:mm:ss")),
        new System("OpenStack", "openstack", new int[] {2, 3}, pattern("yyyy-MM-dd HH:mm:ss.SSS")),
        new System("Proxifier", "proxifier", new int[] {1}, pattern("MM.dd HH:mm:ss")),
        new System("Spark", "spark", new int[] {1, 2}, pattern("yy/MM/dd HH:mm:ss")),
        new System("Thunderbird", "thunderbird", new int[] {2}, EPOCH),
        new System("Windows", "windows_cbs", new int[] {1, 2}, pattern("yyyy-MM-dd HH:mm:ss")),
        new System("Zookeeper", "zookeeper", new int[] {1, 2}, pattern("yyyy-MM-dd HH:mm:ss,SSS")));
  }

  static List<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (System system : systems()) {
      cases.add(Arguments.of(system, system.sourcetype()));
      cases.add(Arguments.of(system, "loghub_unknown_" + system.name().toLowerCase(Locale.ROOT)));
    }
    return cases;
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("cases")
  void everyEventGetsTheTimestampLoghubParsed(System system, String sourcetype) throws IOException {
    String log = text("/loghub/" + system.name() + "_2k.log");
    EventBreaker.Result result =
        new EventBreaker(Sourcetypes.builtIn().forName(sourcetype), "h", system.name(), NOW)
            .breakEvents(log.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    List<String> expected = new ArrayList<>();
    List<String> csv = text("/loghub/" + system.name() + "_2k.log_structured.csv").lines().toList();
    for (String line : csv.subList(1, csv.size())) {
      List<String> columns = csvColumns(line);
      StringBuilder time = new StringBuilder();
      for (int column : system.columns()) {
        time.append(time.isEmpty() ? "" : " ").append(columns.get(column));
      }
      expected.add(time.toString());
    }

    assertThat(result.timestampMissing()).as("events without a timestamp").isZero();
    assertThat(result.events()).hasSize(expected.size());
    for (int i = 0; i < expected.size(); i++) {
      Event event = result.events().get(i);
      assertThat(system.render().apply(event.timeMicros()))
          .as("%s line %d: %s", system.name(), i + 1, event.raw())
          .isEqualTo(expected.get(i));
      assertThat(event.indexedFields()).doesNotContainKey(EventBreaker.TIMESTAMP_MISSING);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("systems")
  void builtInSearchExtractionsMatchEveryLine(System system) throws IOException {
    Sourcetype sourcetype = Sourcetypes.builtIn().forName(system.sourcetype());
    List<String> lines = text("/loghub/" + system.name() + "_2k.log").lines().toList();
    if (system.name().equals("Thunderbird")) {
      return; // no search extraction: its lines mix syslog and kernel shapes
    }
    for (String line : lines) {
      assertThat(sourcetype.extract(line)).as("%s: %s", system.sourcetype(), line).isNotEmpty();
    }
  }

  /** The fields of one CSV line: commas inside double quotes do not split, "" is a quote. */
  static List<String> csvColumns(String line) {
    List<String> columns = new ArrayList<>();
    StringBuilder column = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          column.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          column.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        columns.add(column.toString());
        column.setLength(0);
      } else {
        column.append(c);
      }
    }
    columns.add(column.toString());
    return columns;
  }

  private static String text(String resource) throws IOException {
    try (InputStream in = LoghubTimestampTest.class.getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
