package io.quarry.server.hec;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.codecs.metricstore.MetricBatch;
import io.quarry.codecs.metricstore.MetricIndexOptions;
import io.quarry.codecs.metricstore.MetricStore;
import io.quarry.codecs.store.Event;
import io.quarry.codecs.store.EventStore;
import io.quarry.server.config.HecToken;
import io.quarry.server.hec.reference.TreeHecEventParser;
import io.quarry.server.ingest.IndexedEvent;
import io.quarry.server.ingest.IngestGate;
import io.quarry.server.ingest.IngestService;
import io.quarry.server.metricindex.IndexedPoint;
import io.quarry.server.metricindex.MetricIngest;
import io.quarry.server.metrics.ServerMetrics;
import io.quarry.server.sourcetype.Sourcetypes;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streaming HEC parser ({@link HecEnvelope}, {@code HecMetricBatches}) against the tree parser
 * it replaced ({@link TreeHecEventParser}, kept in the tests as the reference): random bodies of
 * metric and event envelopes — good ones, every kind of bad value, repeated names, keys in any
 * order, bodies cut short — must give the same events, the same points per index in the same order,
 * and the same error (code, event number, reason).
 */
class HecStreamingParserTest {
  private static final HecToken TOKEN =
      new HecToken("t", "t", "main", List.of("main", "web", "m"), null);
  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00.123456Z");

  @TempDir Path directory;
  private EventStore events;
  private MetricStore metrics;
  private IngestService ingest;
  private MetricIngest metricIngest;

  @BeforeEach
  void open() throws Exception {
    events = EventStore.open(directory.resolve("events"), List.of("main", "web"));
    metrics =
        MetricStore.open(
            directory.resolve("metrics"),
            Map.of("m", MetricIndexOptions.DEFAULTS, "m2", MetricIndexOptions.DEFAULTS),
            Clock.systemUTC(),
            Duration.ofHours(1));
    ingest =
        new IngestService(
            events, new ServerMetrics(), Sourcetypes.builtIn(), new IngestGate(1, 1 << 20));
    metricIngest = new MetricIngest(metrics);
  }

  @AfterEach
  void close() throws Exception {
    metrics.close();
    events.close();
  }

  @Test
  void answersAsTheTreeParserDid() throws Exception {
    long seed = new Random().nextLong();
    System.out.println("HecStreamingParserTest seed " + seed);
    Random random = new Random(seed);
    int errors = 0;
    int points = 0;
    for (int round = 0; round < 3000; round++) {
      String body = body(random);
      if (random.nextInt(10) == 0 && !clean) {
        body = body.substring(0, random.nextInt(body.length() + 1));
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      TreeHecEventParser.Result expected =
          new TreeHecEventParser(TOKEN, ingest, "default-host", NOW)
              .metricIndexes(metricIngest)
              .parse(new ByteArrayInputStream(bytes));
      HecEventParser.Result actual =
          new HecEventParser(TOKEN, ingest, "default-host", NOW)
              .metricIndexes(metricIngest)
              .parse(bytes);
      String context = "seed " + seed + ", body " + body;
      assertThat(actual.events()).as(context).isEqualTo(expected.events());
      for (IndexedEvent indexed : actual.events()) {
        Event event = indexed.event();
        if (event.asciiArray() != null) { // the body's bytes are the text the tree parser decoded
          assertThat(
                  new String(
                      event.asciiArray(),
                      event.asciiOffset(),
                      event.asciiLength(),
                      StandardCharsets.ISO_8859_1))
              .as(context)
              .isEqualTo(event.raw());
          bytesTaken++;
        }
      }
      assertThat(flatten(actual.points())).as(context).isEqualTo(flatten(expected.points()));
      assertThat(actual.error().map(HecException::body))
          .as(context)
          .isEqualTo(expected.error().map(HecException::body));
      errors += expected.error().isPresent() ? 1 : 0;
      points += expected.points().size();
    }
    assertThat(errors).as("bad bodies were generated").isGreaterThan(300);
    assertThat(points).as("good points were generated").isGreaterThan(3000);
    assertThat(bytesTaken).as("events taken from the body's bytes").isGreaterThan(50);
  }

  private int bytesTaken;

  /** The events as the tree parser makes them: no bytes of their text. */
  private static Map<String, List<String>> flatten(Map<String, MetricBatch> batches) {
    Map<String, List<String>> flat = new TreeMap<>();
    batches.forEach(
        (index, batch) -> {
          for (int i = 0; i < batch.size(); i++) {
            flat.computeIfAbsent(index, x -> new ArrayList<>()).add(point(batch.point(i)));
          }
        });
    return flat;
  }

  private static Map<String, List<String>> flatten(List<IndexedPoint> points) {
    Map<String, List<String>> flat = new TreeMap<>();
    for (IndexedPoint point : points) {
      flat.computeIfAbsent(point.index(), x -> new ArrayList<>()).add(point(point.point()));
    }
    return flat;
  }

  private static String point(io.quarry.codecs.metricstore.MetricPoint point) {
    return point.series()
        + "@"
        + point.timeMicros()
        + "="
        + Long.toHexString(Double.doubleToRawLongBits(point.value()));
  }

  private static String body(Random random) {
    clean = random.nextBoolean();
    StringBuilder body = new StringBuilder();
    int envelopes = 1 + random.nextInt(6);
    for (int e = 0; e < envelopes; e++) {
      if (random.nextInt(60) == 0) {
        body.append(pick(random, "[1]", "\"text\"", "3"));
      } else {
        envelope(random, body);
      }
      body.append(pick(random, "\n", "", " "));
    }
    return body.toString();
  }

  private static void envelope(Random random, StringBuilder out) {
    List<String> members = new ArrayList<>();
    if (random.nextInt(12) != 0) {
      members.add("\"time\":" + pick(random, TIMES));
    }
    boolean metric = random.nextInt(4) != 0;
    if (random.nextInt(15) != 0 || clean) {
      members.add(
          "\"event\":" + (metric && random.nextInt(10) != 0 ? "\"metric\"" : pick(random, EVENTS)));
    }
    if (random.nextInt(3) != 0) {
      members.add(
          "\"index\":"
              + (metric
                  ? pick(random, "\"m\"", "\"m\"", "\"m\"", "\"m2\"", "\"main\"", "\"nope\"", "1")
                  : pick(random, "\"main\"", "\"web\"", "\"m\"", "\"other\"", "null")));
    }
    for (String name : List.of("host", "source", "sourcetype")) {
      if (random.nextInt(3) == 0) {
        members.add("\"" + name + "\":" + pick(random, DIMENSION_VALUES));
      }
    }
    if (random.nextInt(12) != 0 || clean) {
      members.add(
          "\"fields\":" + (random.nextInt(25) == 0 && !clean ? "[1,2]" : fields(random, metric)));
    }
    if (random.nextInt(10) == 0) {
      members.add("\"extra\":" + pick(random, "{\"a\":[1,{\"b\":null}]}", "true", "\"x\""));
    }
    if (random.nextInt(15) == 0 && !members.isEmpty()) {
      members.add(members.get(random.nextInt(members.size()))); // a repeated member
    }
    java.util.Collections.shuffle(members, random);
    out.append('{').append(String.join(",", members)).append('}');
  }

  private static String fields(Random random, boolean metric) {
    List<String> members = new ArrayList<>();
    boolean wide = random.nextInt(15) == 0; // past the name filter's reach: 60 to 200 names
    int metrics = wide ? 60 + random.nextInt(140) : metric ? random.nextInt(8) : random.nextInt(2);
    for (int m = 0; m < metrics; m++) {
      String name =
          random.nextInt(30) == 0 && !clean
              ? pick(random, "", " ", "\\t")
              : "cpu." + random.nextInt(wide ? 250 : 5);
      members.add("\"metric_name:" + name + "\":" + pick(random, VALUES));
    }
    boolean single = random.nextInt(3) == 0;
    if (single) {
      members.add("\"metric_name\":" + pick(random, "\"mem\"", "\"disk.1\"", "7", "\" \"", "null"));
    }
    if (clean ? single : random.nextInt(3) == 0) {
      members.add("\"_value\":" + pick(random, VALUES));
    }
    int dimensions = random.nextInt(4);
    for (int d = 0; d < dimensions; d++) {
      String name = pick(random, "region", "dc", "host", "rack", "_bad", "", "metric_namex");
      members.add("\"" + name + "\":" + pick(random, DIMENSION_VALUES));
    }
    if (random.nextInt(12) == 0 && !members.isEmpty()) {
      members.add(members.get(random.nextInt(members.size())));
    }
    java.util.Collections.shuffle(members, random);
    return "{" + String.join(",", members) + "}";
  }

  private static final String[] TIMES = {
    "1764072000",
    "1764072000.5",
    "1.764072e9",
    "\"1764072001.25\"",
    "\"soon\"",
    "-1",
    "null",
    "true",
    "1e300",
    "{\"t\":1}",
    "1764072000123456789012"
  };
  private static final String[] EVENTS = {
    "\"metric\"",
    "\"hello world\"",
    "{\"a\":1,\"b\":[true,null]}",
    "\"\"",
    "\"  \"",
    "null",
    "42",
    "\"t\\u00e9 \\\"q\\\"\"",
    "\"caf\u00e9\""
  };
  private static final String[] VALUES = {
    "1",
    "-7",
    "0",
    "-0",
    "3.25",
    "-0.0",
    "1e3",
    "1.5E-7",
    "9007199254740993",
    "2147483648",
    "123456789012345678901234567890",
    "\"2.5\"",
    "\" 17 \"",
    "\"NaN\"",
    "\"inf\"",
    "\"-Infinity\"",
    "\"abc\"",
    "true",
    "null",
    "[1]",
    "{\"v\":1}",
    "1e400",
    "0.1"
  };
  private static final String[] DIMENSION_VALUES = {
    "\"us\"",
    "\"eu\"",
    "\"h1\"",
    "\"\"",
    "\" \"",
    "5",
    "5.0",
    "-0",
    "1e2",
    "false",
    "null",
    "[\"a\"]",
    "{\"x\":1}",
    "\"\\u00e9t\\u00e9\"",
    "12345678901",
    "123456789012345678901234567890"
  };

  /** Whether the body being made takes only the first, good, choices of every list. */
  private static boolean clean;

  private static String pick(Random random, String... choices) {
    if (clean && choices.length > 3) {
      return choices[random.nextInt(3)];
    }
    return choices[random.nextInt(choices.length)];
  }
}
