package io.quarry.server.search.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A metric index end to end on a real server: points sent over HEC (the multi-metric form and the
 * single-metric form), searched with mstats, mcatalog and mpreview over Splunk's export endpoint
 * and the native API, before and after a restart. Every expected answer is computed here in plain
 * Java from the points the test generated, never from Quarry's output.
 */
class MetricSearchTest {
  private static final String PASSWORD = "metric-pw";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = Instant.parse("2026-01-07T10:00:00Z").getEpochSecond();
  private static final String[] HOSTS = {"h1", "h2"};
  private static final int POINTS = 180; // 30 minutes at 10 s

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  /** Every point sent: host → metric → time (s) → value. */
  private static final Map<String, Map<String, TreeMap<Long, Double>>> SENT = new TreeMap<>();

  static double userValue(int host, int i) {
    return (i % 7) + 10 * host + 0.5;
  }

  static double sysValue(int host, int i) {
    return (i % 3) * 1.25 + host;
  }

  /** A counter of 100 per 10 s, reset to 0 at point 100 of h2. */
  static double bytesValue(int host, int i) {
    return host == 1 && i >= 100 ? (i - 100) * 100.0 : i * 100.0;
  }

  static QuarryServer start() throws Exception {
    return TestServers.start(
        dataDirectory, PASSWORD, settings -> TestServers.withMetricIndex(settings, 200L));
  }

  @BeforeAll
  static void load() throws Exception {
    server = start();
    StringBuilder body = new StringBuilder();
    for (int h = 0; h < HOSTS.length; h++) {
      for (int i = 0; i < POINTS; i++) {
        long time = T0 + 10L * i;
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("region", h == 0 ? "us" : "eu");
        fields.put("metric_name:cpu.user", userValue(h, i));
        fields.put("metric_name:cpu.sys", sysValue(h, i));
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("time", time);
        envelope.put("event", "metric");
        envelope.put("index", "m");
        envelope.put("host", HOSTS[h]);
        envelope.put("fields", fields);
        body.append(JSON.writeValueAsString(envelope)).append('\n');
        // the single-metric form for the counter, its value as text
        body.append(
                JSON.writeValueAsString(
                    Map.of(
                        "time",
                        time,
                        "event",
                        "metric",
                        "index",
                        "m",
                        "host",
                        HOSTS[h],
                        "fields",
                        Map.of(
                            "region",
                            h == 0 ? "us" : "eu",
                            "metric_name",
                            "net.bytes",
                            "_value",
                            Double.toString(bytesValue(h, i))))))
            .append('\n');
        SENT.computeIfAbsent(HOSTS[h], k -> new TreeMap<>())
            .computeIfAbsent("cpu.user", k -> new TreeMap<>())
            .put(time, userValue(h, i));
        SENT.get(HOSTS[h])
            .computeIfAbsent("cpu.sys", k -> new TreeMap<>())
            .put(time, sysValue(h, i));
        SENT.get(HOSTS[h])
            .computeIfAbsent("net.bytes", k -> new TreeMap<>())
            .put(time, bytesValue(h, i));
      }
    }
    HttpResponse<String> sent = hec(body.toString());
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
  }

  static HttpResponse<String> hec(String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
                .header("Authorization", "Splunk " + TestServers.TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** The export endpoint's result rows. */
  static List<JsonNode> rows(String query) throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
    assertThat(response.statusCode()).as(query + ": " + response.body()).isEqualTo(200);
    List<JsonNode> rows = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode node = JSON.readTree(line);
      if (node.has("result")) {
        rows.add(node.get("result"));
      }
    }
    return rows;
  }

  /** A result's time (Splunk's ISO-8601 text) in epoch seconds. */
  static long seconds(JsonNode time) {
    return java.time.OffsetDateTime.parse(time.asText()).toEpochSecond();
  }

  static String messages(String query) throws Exception {
    return TestServers.export(server, PASSWORD, query).body();
  }

  @Test
  void averagesPerHostAndMinuteForEveryMatchingMetric() throws Exception {
    List<JsonNode> rows = rows("| mstats avg(cpu.*) where index=m host=h1 span=1m");
    // expected: per minute, the mean of h1's points of each cpu metric
    TreeMap<Long, double[]> expected = new TreeMap<>(); // minute → sum user, sum sys, count
    SENT.get("h1")
        .get("cpu.user")
        .forEach(
            (time, value) ->
                expected.computeIfAbsent(time / 60 * 60, k -> new double[3])[0] += value);
    SENT.get("h1")
        .get("cpu.sys")
        .forEach(
            (time, value) -> {
              double[] sums = expected.get(time / 60 * 60);
              sums[1] += value;
              sums[2]++;
            });
    assertThat(rows).hasSize(expected.size());
    int r = 0;
    for (Map.Entry<Long, double[]> minute : expected.entrySet()) {
      JsonNode row = rows.get(r++);
      assertThat(seconds(row.get("_time"))).isEqualTo(minute.getKey());
      double count = minute.getValue()[2];
      assertThat(row.get("avg(cpu.user)").asDouble())
          .isCloseTo(minute.getValue()[0] / count, within(1e-9));
      assertThat(row.get("avg(cpu.sys)").asDouble())
          .isCloseTo(minute.getValue()[1] / count, within(1e-9));
      assertThat(row.has("avg(net.bytes)")).isFalse();
    }
  }

  @Test
  void statisticsByDimensionOverTheWholeRange() throws Exception {
    List<JsonNode> rows =
        rows(
            "| mstats count(cpu.user) AS n max(cpu.user) AS top perc90(cpu.sys) stdev(cpu.user)"
                + " latest(cpu.sys) AS last where index=m by region");
    assertThat(rows).extracting(row -> row.get("region").asText()).containsExactly("eu", "us");
    for (JsonNode row : rows) {
      String host = row.get("region").asText().equals("us") ? "h1" : "h2";
      List<Double> user = new ArrayList<>(SENT.get(host).get("cpu.user").values());
      List<Double> sys = new ArrayList<>(SENT.get(host).get("cpu.sys").values());
      assertThat(row.get("n").asLong()).isEqualTo(user.size());
      assertThat(row.get("top").asDouble())
          .isEqualTo(user.stream().mapToDouble(d -> d).max().orElseThrow());
      List<Double> sorted = sys.stream().sorted().toList();
      double rank = 0.9 * (sorted.size() - 1);
      int low = (int) Math.floor(rank);
      double perc =
          sorted.get(low) + (sorted.get((int) Math.ceil(rank)) - sorted.get(low)) * (rank - low);
      assertThat(row.get("perc90(cpu.sys)").asDouble()).isCloseTo(perc, within(1e-9));
      double mean = user.stream().mapToDouble(d -> d).average().orElseThrow();
      double squares = user.stream().mapToDouble(d -> (d - mean) * (d - mean)).sum();
      assertThat(row.get("stdev(cpu.user)").asDouble())
          .isCloseTo(Math.sqrt(squares / (user.size() - 1)), within(1e-9));
      assertThat(row.get("last").asDouble())
          .isEqualTo(SENT.get(host).get("cpu.sys").lastEntry().getValue());
    }
  }

  @Test
  void rateHandlesACounterReset() throws Exception {
    List<JsonNode> rows = rows("| mstats rate(net.bytes) AS r where index=m by host");
    assertThat(rows).hasSize(2);
    for (JsonNode row : rows) {
      TreeMap<Long, Double> points = SENT.get(row.get("host").asText()).get("net.bytes");
      double increase = 0;
      Double previous = null;
      for (double value : points.values()) {
        if (previous != null) {
          increase += value >= previous ? value - previous : value;
        }
        previous = value;
      }
      double seconds = points.lastKey() - points.firstKey();
      assertThat(row.get("r").asDouble()).isCloseTo(increase / seconds, within(1e-9));
    }
    // h2's counter was reset: its increase still counts 100 per 10 s apart from the reset step
    assertThat(rows.get(1).get("r").asDouble()).isLessThan(rows.get(0).get("r").asDouble());
  }

  @Test
  void timeRangeAndFilters() throws Exception {
    long from = T0 + 600;
    long to = T0 + 1200;
    List<JsonNode> rows =
        rows(
            "| mstats sum(cpu.user) AS s count(_value) AS c where index=m earliest="
                + from
                + " latest="
                + to
                + " (host=H2 OR region=nowhere) metric_name=cpu.user");
    double sum =
        SENT.get("h2").get("cpu.user").subMap(from, to).values().stream().mapToDouble(d -> d).sum();
    assertThat(rows).hasSize(1);
    assertThat(rows.get(0).get("s").asDouble()).isCloseTo(sum, within(1e-9));
    assertThat(rows.get(0).get("c").asLong()).isEqualTo(60);
    // nothing matches: no row
    assertThat(rows("| mstats avg(cpu.user) where index=m host=h9")).isEmpty();
  }

  @Test
  void catalogAndPreview() throws Exception {
    List<JsonNode> catalog =
        rows("| mcatalog values(metric_name) values(host) AS hosts where index=m by region");
    assertThat(catalog).hasSize(2);
    assertThat(catalog.get(0).get("region").asText()).isEqualTo("eu");
    assertThat(catalog.get(0).get("values(metric_name)").toString())
        .isEqualTo("[\"cpu.sys\",\"cpu.user\",\"net.bytes\"]");
    assertThat(catalog.get(0).get("hosts").asText()).isEqualTo("h2");
    List<JsonNode> preview =
        rows("| mpreview target_per_timeseries=3 index=m host=h1 metric_name=cpu.user");
    assertThat(preview).hasSize(3);
    assertThat(preview.get(0).get("_value").asDouble()).isEqualTo(userValue(0, 0));
    assertThat(preview.get(0).get("metric_name").asText()).isEqualTo("cpu.user");
    assertThat(seconds(preview.get(2).get("_time"))).isEqualTo(T0 + 20);
    // the rows go on through the pipeline
    assertThat(rows("| mstats max(cpu.user) AS top where index=m by host | where top > 15"))
        .extracting(row -> row.get("host").asText())
        .containsExactly("h2");
  }

  @Test
  void wrongIndexesAreClearErrorsAndRefuseTheBodyWhole() throws Exception {
    String good =
        "{\"time\":"
            + (T0 + 5000)
            + ",\"event\":\"metric\",\"index\":\"m\",\"host\":\"h3\","
            + "\"fields\":{\"metric_name\":\"mem.free\",\"_value\":7}}";
    String metricToEvents =
        "{\"time\":"
            + (T0 + 5000)
            + ",\"event\":\"metric\",\"index\":\"main\",\"fields\":{\"metric_name\":\"x\",\"_value\":1}}";
    HttpResponse<String> refused = hec(good + metricToEvents + good.replace("h3", "h4"));
    assertThat(refused.statusCode()).isEqualTo(400);
    JsonNode error = JSON.readTree(refused.body());
    assertThat(error.get("code").asInt()).isEqualTo(7);
    assertThat(error.get("invalid-event-number").asInt()).isEqualTo(1);
    assertThat(error.get("reason").asText()).contains("index 'main' is an event index");
    String eventToMetrics = "{\"index\":\"m\",\"event\":\"GET /index.html 200\"}";
    HttpResponse<String> alsoRefused = hec(eventToMetrics);
    assertThat(JSON.readTree(alsoRefused.body()).get("reason").asText())
        .contains("index 'm' is a metric index");
    assertThat(rows("| mstats count(mem.free) AS n where index=m by host"))
        .as("refused whole: not the point before the bad one either")
        .isEmpty();
    assertThat(messages("index=m | stats count")).contains("is a metric index");
    assertThat(messages("| mstats avg(x) where index=main")).contains("is an event index");
  }

  @Test
  void typedPagesAndRowsThroughAPipelineAgree() throws Exception {
    // nothing after mstats: typed pages straight from the aggregation; a where after it: rows
    String mstats =
        "| mstats avg(cpu.*) count(net.bytes) AS n rate(net.bytes) AS r where index=m by host"
            + " span=5m";
    List<JsonNode> direct = rows(mstats);
    List<JsonNode> piped = rows(mstats + " | where isnotnull(host)");
    assertThat(direct).hasSize(2 * 6);
    assertThat(piped.toString()).isEqualTo(direct.toString());
  }

  @Test
  void mpreviewInTypedPagesAnswersAsThroughRows() throws Exception {
    // nothing after mpreview: typed pages of the points; a where after it: rows, paged by the
    // pipeline — the same answer, every series' dimensions as columns
    for (String preview :
        List.of(
            "| mpreview target_per_timeseries=3 index=m",
            "| mpreview target_per_timeseries=0 index=m host=h1",
            "| mpreview target_per_timeseries=0 index=m")) {
      List<JsonNode> direct = rows(preview);
      List<JsonNode> piped = rows(preview + " | where isnotnull(metric_name)");
      assertThat(direct).as(preview).isNotEmpty();
      assertThat(piped.toString()).as(preview).isEqualTo(direct.toString());
    }
  }

  @Test
  void prestatsFeedsTimechartAndStats() throws Exception {
    // the points go on as rows; timechart computes the same averages mstats would
    List<JsonNode> timechart =
        rows(
            "| mstats prestats=true avg(cpu.user) where index=m span=10m"
                + " | timechart span=10m avg(cpu.user) AS a by host");
    List<JsonNode> mstats = rows("| mstats avg(cpu.user) AS a where index=m by host span=10m");
    assertThat(timechart).hasSize(3);
    for (JsonNode row : timechart) {
      for (String host : HOSTS) {
        JsonNode same =
            mstats.stream()
                .filter(
                    m ->
                        m.get("_time").equals(row.get("_time"))
                            && m.get("host").asText().equals(host))
                .findFirst()
                .orElseThrow();
        assertThat(row.get(host).asDouble()).isCloseTo(same.get("a").asDouble(), within(1e-9));
      }
    }
    List<JsonNode> counted =
        rows(
            "| mstats prestats=true count(cpu.*) where index=m host=h2 | stats count by metric_name");
    assertThat(counted)
        .extracting(row -> row.get("metric_name").asText() + "=" + row.get("count").asText())
        .containsExactly("cpu.sys=" + POINTS, "cpu.user=" + POINTS);
  }

  /** The mean of a host's metric over the 10-minute bucket starting at {@code start}. */
  static double mean(String host, String metric, long start) {
    return SENT.get(host).get(metric).subMap(start, start + 600).values().stream()
        .mapToDouble(Double::doubleValue)
        .average()
        .orElseThrow();
  }

  @Test
  void appendTrueAddsItsPointsToTheRowsBeforeIt() throws Exception {
    // Splunk's way of charting metrics of different selections together
    List<JsonNode> chart =
        rows(
            "| mstats prestats=true avg(cpu.user) where index=m host=h1 span=10m"
                + " | mstats prestats=true append=true avg(cpu.sys) where index=m host=h2 span=10m"
                + " | timechart span=10m avg(cpu.user) AS u, avg(cpu.sys) AS s");
    assertThat(chart).hasSize(3);
    for (JsonNode row : chart) {
      long start = seconds(row.get("_time"));
      assertThat(row.get("u").asDouble()).isCloseTo(mean("h1", "cpu.user", start), within(1e-9));
      assertThat(row.get("s").asDouble()).isCloseTo(mean("h2", "cpu.sys", start), within(1e-9));
    }
    // after any rows: they come first, the points after them
    List<JsonNode> made =
        rows(
            "| makeresults count=2 | eval made=1"
                + " | mstats prestats=t append=t count(net.bytes) where index=m host=h2"
                + " | head 4");
    assertThat(made).extracting(row -> row.has("made")).containsExactly(true, true, false, false);
    assertThat(made.get(2).get("net.bytes").asDouble())
        .isEqualTo(SENT.get("h2").get("net.bytes").firstEntry().getValue());
    List<JsonNode> counted =
        rows(
            "| makeresults count=2 | eval made=1"
                + " | mstats prestats=t append=t count(cpu.user) where index=m host=h1"
                + " | stats count(made) AS made, count(cpu.user) AS points");
    assertThat(counted.getFirst().get("made").asLong()).isEqualTo(2);
    assertThat(counted.getFirst().get("points").asLong()).isEqualTo(POINTS);
    // after an event search (main holds no events: stats says 0)
    List<JsonNode> afterEvents =
        rows(
            "index=main | stats count AS events"
                + " | mstats prestats=t append=t count(cpu.*) where index=m host=h1 earliest="
                + (T0 + 600)
                + " | stats sum(events) AS events, count(cpu.user) AS user, count(cpu.sys) AS sys");
    assertThat(afterEvents.getFirst().get("events").asLong()).isZero();
    assertThat(afterEvents.getFirst().get("user").asLong()).isEqualTo(POINTS - 60);
    assertThat(afterEvents.getFirst().get("sys").asLong()).isEqualTo(POINTS - 60);
    // its own indexes are checked as a first mstats' are
    assertThat(messages("| makeresults | mstats prestats=t append=t count(x) where index=main"))
        .contains("is an event index");
    HttpResponse<String> refused =
        TestServers.export(
            server, PASSWORD, "| makeresults | mstats append=t count(cpu.user) where index=m");
    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body()).contains("valid only with prestats=true");
  }

  static HttpResponse<String> remoteWrite(
      String path, String authorization, String contentType, byte[] body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + path))
                .header("Authorization", authorization)
                .header("Content-Encoding", "snappy")
                .header("Content-Type", contentType)
                .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                .header("User-Agent", "Prometheus/3.0.0")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void prometheusRemoteWrite() throws Exception {
    // what Prometheus sends (remote_write: url .../api/v1/write?index=m, authorization: the token)
    List<io.quarry.server.metricindex.RemoteWriteRequests.Series> series = new ArrayList<>();
    Map<String, Double> sums = new TreeMap<>();
    for (int instance = 0; instance < 3; instance++) {
      List<io.quarry.server.metricindex.RemoteWriteRequests.Sample> samples = new ArrayList<>();
      double sum = 0;
      for (int i = 0; i < 50; i++) {
        double value = instance * 1000 + i * 1.5;
        samples.add(
            new io.quarry.server.metricindex.RemoteWriteRequests.Sample(
                (T0 + 9000 + 15L * i) * 1000, value));
        sum += value;
      }
      sums.put("node" + instance + ":9100", sum);
      series.add(
          new io.quarry.server.metricindex.RemoteWriteRequests.Series(
              Map.of(
                  "__name__",
                  "node_cpu_seconds_total",
                  "instance",
                  "node" + instance + ":9100",
                  "job",
                  "node",
                  "mode",
                  "idle"),
              samples));
    }
    byte[] body = io.quarry.server.metricindex.RemoteWriteRequests.body(series, true);
    HttpResponse<String> stored =
        remoteWrite(
            "/api/v1/write?index=m&host=prom1",
            "Bearer " + TestServers.TOKEN,
            "application/x-protobuf",
            body);
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(204);
    assertThat(
            rows(
                "| mstats sum(node_cpu_seconds_total) AS s, count(node_cpu_seconds_total) AS n"
                    + " where index=m job=node mode=idle host=prom1 by instance"))
        .extracting(
            row ->
                row.get("instance").asText()
                    + "="
                    + row.get("s").asDouble()
                    + "/"
                    + row.get("n").asLong())
        .containsExactly(
            sums.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue() + "/50")
                .toArray(String[]::new));
    // the same request again (Prometheus retries): the last value at an instant wins, no doubles
    assertThat(
            remoteWrite(
                    "/api/v1/metrics/import/prometheus/write?index=m&host=prom1",
                    "Splunk " + TestServers.TOKEN,
                    "application/x-protobuf",
                    body)
                .statusCode())
        .isEqualTo(204);
    assertThat(
            rows(
                "| mstats count(node_cpu_seconds_total) AS n where index=m host=prom1"
                    + " instance=node1:9100"))
        .extracting(row -> row.get("n").asLong())
        .containsExactly(50L);
    HttpResponse<String> garbage =
        remoteWrite(
            "/api/v1/write?index=m",
            "Bearer " + TestServers.TOKEN,
            "application/x-protobuf",
            new byte[] {1, 2, 3, 4});
    assertThat(garbage.statusCode()).isEqualTo(400);
    assertThat(garbage.body()).contains("INVALID_REMOTE_WRITE").contains("nothing of the body");
    HttpResponse<String> v2 =
        remoteWrite(
            "/api/v1/write?index=m",
            "Bearer " + TestServers.TOKEN,
            "application/x-protobuf;proto=io.prometheus.write.v2.Request",
            body);
    assertThat(v2.statusCode()).isEqualTo(415);
    assertThat(
            remoteWrite("/api/v1/write?index=m", "Bearer nope", "application/x-protobuf", body)
                .statusCode())
        .isEqualTo(401);
    assertThat(
            remoteWrite(
                    "/api/v1/write?index=main",
                    "Bearer " + TestServers.TOKEN,
                    "application/x-protobuf",
                    body)
                .body())
        .contains("is not a metric index");
  }

  @Test
  void countsComeFromChunkHeadersWhereTheyCan() throws Exception {
    // a day span holds whole chunks: counted from their headers; a 10 minute span does not
    assertThat(rows("| mstats count(cpu.user) AS n where index=m host=h1 span=1d"))
        .extracting(row -> row.get("n").asLong())
        .containsExactly((long) POINTS);
    List<JsonNode> tenMinutes =
        rows("| mstats count(cpu.user) AS n where index=m host=h1 span=10m");
    assertThat(tenMinutes).hasSize(3);
    assertThat(tenMinutes).extracting(row -> row.get("n").asLong()).containsOnly(60L);
  }

  @Test
  void prometheusTextExposition() throws Exception {
    String text =
        "# HELP http_requests_total The total number of HTTP requests.\n"
            + "# TYPE http_requests_total counter\n"
            + "http_requests_total{method=\"post\",code=\"200\"} 1027 "
            + (T0 + 7000) * 1000
            + "\n"
            + "http_requests_total{method=\"post\",code=\"400\"}    3 "
            + (T0 + 7000) * 1000
            + "\n\n"
            + "queue_depth{path=\"C:\\\\tmp\\\"x\\\"\"} +Inf "
            + (T0 + 7000) * 1000
            + "\n";
    HttpResponse<String> stored = prometheus("index=m&host=exporter1", text);
    assertThat(stored.statusCode()).as(stored.body()).isEqualTo(200);
    assertThat(JSON.readTree(stored.body()).get("points").asInt()).isEqualTo(3);
    assertThat(
            rows(
                "| mstats sum(http_requests_total) AS s where index=m host=exporter1 method=post"
                    + " by code"))
        .extracting(row -> row.get("code").asText() + "=" + row.get("s").asDouble())
        .containsExactly("200=1027.0", "400=3.0");
    assertThat(rows("| mpreview index=m metric_name=queue_depth"))
        .extracting(row -> row.get("path").asText())
        .containsExactly("C:\\tmp\"x\"");
    HttpResponse<String> bad = prometheus("index=m", "good_one 1\nbad{label=unquoted} 2\n");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body()).contains("line 2").contains("nothing of the body was stored");
    assertThat(rows("| mstats count(good_one) AS n where index=m")).isEmpty();
    assertThat(prometheus("index=main", "x 1\n").body()).contains("is not a metric index");
  }

  static HttpResponse<String> prometheus(String query, String body) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(server.url() + "/api/v1/metrics/import/prometheus?" + query))
                .header("Authorization", "Splunk " + TestServers.TOKEN)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void jobsShowSeriesAndChunksReadAndTheDataSurvivesARestart() throws Exception {
    String query = "| mstats avg(cpu.user) AS a where index=m host=h1";
    double before = rows(query).get(0).get("a").asDouble();
    assertThat(before)
        .isCloseTo(
            SENT.get("h1").get("cpu.user").values().stream()
                .mapToDouble(d -> d)
                .average()
                .orElseThrow(),
            within(1e-9));
    JsonNode metrics = costs(query).get("metrics");
    assertThat(metrics.get("series").asLong()).isPositive();
    assertThat(metrics.get("points").asLong()).isEqualTo(POINTS);
    assertThat(metrics.get("chunks").asLong()).isPositive();

    server.close();
    server = start(); // warm buckets (200 points each) and the log's replay
    assertThat(rows(query).get(0).get("a").asDouble()).isEqualTo(before);
    JsonNode listed =
        JSON.readTree(
                HttpClient.newHttpClient()
                    .send(
                        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/indexes"))
                            .header("Authorization", TestServers.basic(PASSWORD))
                            .build(),
                        HttpResponse.BodyHandlers.ofString())
                    .body())
            .get("metricIndexes")
            .get(0);
    assertThat(listed.get("name").asText()).isEqualTo("m");
    assertThat(listed.get("points").asLong()).isGreaterThanOrEqualTo(3L * HOSTS.length * POINTS);
    assertThat(listed.get("warmBuckets").asInt()).isPositive();
    assertThat(rows("| help mstats").toString()).contains("<function>(<metric>) [AS <name>]");
  }

  @Test
  void costsCountEveryMstatsOfASearch() throws Exception {
    // two mstats: the first one's scan and the appended one's
    JsonNode both =
        costs(
                "| mstats prestats=true avg(cpu.user) where index=m host=h1"
                    + " | mstats prestats=true append=true avg(cpu.sys) where index=m host=h2"
                    + " | stats count")
            .get("metrics");
    assertThat(both.get("points").asLong()).isEqualTo(2L * POINTS);
    assertThat(both.get("series").asLong()).isEqualTo(2);
    // a search of no metric index whose pipeline appends points
    JsonNode appended =
        costs(
                "| makeresults count=2"
                    + " | mstats prestats=t append=t count(net.bytes) where index=m host=h2"
                    + " | stats count")
            .get("metrics");
    assertThat(appended.get("points").asLong()).isEqualTo(POINTS);
  }

  @Test
  void appendedPointsStopWhenAHeadAfterThemHasItsRows() throws Exception {
    // pages of 4: the head's 5 rows are the 2 made and 3 points of the first appended page
    String appended =
        "| makeresults count=2 | eval made=1"
            + " | mstats prestats=t append=t count(net.bytes) where index=m host=h2";
    System.setProperty(io.quarry.server.search.SearchService.PAGE_SIZE_PROPERTY, "4");
    try {
      // the rows mstats handed on: the 2 made and its pages until the head had its 5 (the
      // store's points count whole chunks, 180 here either way)
      long handedOn = -1;
      for (JsonNode stage : costs(appended + " | head 5").get("stages")) {
        if (stage.get("command").asText().equals("mstats")) {
          handedOn = stage.get("rowsOut").asLong();
        }
      }
      assertThat(handedOn).as("rows mstats append=true handed on").isBetween(5L, 2L + 4);
      List<JsonNode> all = rows(appended + " | fields - _time");
      assertThat(all).hasSize(2 + POINTS);
      assertThat(rows(appended + " | head 5 | fields - _time")).isEqualTo(all.subList(0, 5));
    } finally {
      System.clearProperty(io.quarry.server.search.SearchService.PAGE_SIZE_PROPERTY);
    }
  }

  /** A search run as a job, and its inspector's {@code costs} once it is done. */
  private static JsonNode costs(String query) throws Exception {
    String form = JSON.writeValueAsString(Map.of("query", query));
    HttpResponse<String> job =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/jobs"))
                    .header("Authorization", TestServers.basic(PASSWORD))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(form))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(job.statusCode()).as(job.body()).isBetween(200, 201);
    String id = JSON.readTree(job.body()).get("id").asText();
    for (int attempt = 0; attempt < 200; attempt++) {
      JsonNode inspect =
          JSON.readTree(
              HttpClient.newHttpClient()
                  .send(
                      HttpRequest.newBuilder(
                              URI.create(server.url() + "/api/v1/jobs/" + id + "/inspect"))
                          .header("Authorization", TestServers.basic(PASSWORD))
                          .build(),
                      HttpResponse.BodyHandlers.ofString())
                  .body());
      if (inspect.has("costs")) {
        return inspect.get("costs");
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the job of " + query + " never finished");
  }
}
