package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import io.quarry.server.config.QuarryConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mstats}, {@code mcatalog}, {@code mpreview} and {@code mstats prestats=true} followed by
 * commands run on pages ({@link MetricExecution}: the metric command's typed pages into {@code
 * PageReduce}) and answer what the row engine answers — the same rows, values and column types — on
 * a real metric index: three hosts, one without the {@code dc} dimension, three metrics, more
 * points than a page holds (so prestats' and mpreview's pages carry several series and metrics).
 */
class MetricPagesSearchTest {
  private static final String PASSWORD = "metric-pages-pw";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = Instant.parse("2026-01-07T10:00:00Z").getEpochSecond();
  private static final int POINTS = 240; // 40 minutes at 10 s

  @TempDir static Path dataDirectory;
  private static QuarryServer server;

  @BeforeAll
  static void load() throws Exception {
    server =
        QuarryServer.start(
            new QuarryConfig(
                new QuarryConfig.Server("127.0.0.1", 0, 64L << 20, 4, null),
                dataDirectory.toString(),
                List.of("main", "m"),
                new QuarryConfig.Auth(PASSWORD),
                new QuarryConfig.Hec(
                    List.of(
                        new QuarryConfig.HecToken(
                            TestServers.TOKEN, "test", "main", List.of("main", "m")))),
                null,
                new QuarryConfig.Storage(
                    null,
                    null,
                    null,
                    null,
                    Map.of(
                        "m",
                        new QuarryConfig.IndexStorage(null, null, null, null, "metric", 200L))),
                null,
                null),
            Clock.systemUTC());
    StringBuilder body = new StringBuilder();
    String[] hosts = {"h1", "h2", "h3"};
    for (int h = 0; h < hosts.length; h++) {
      for (int i = 0; i < POINTS; i++) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("region", h == 2 ? "eu" : "us");
        if (h != 1) {
          fields.put("dc", "dc" + (h + i % 2));
        }
        fields.put("metric_name:cpu.user", (i % 7) + 10.0 * h + 0.5);
        fields.put("metric_name:cpu.sys", (i % 3) * 1.25 + h);
        fields.put("metric_name:net.bytes", h == 1 && i >= 100 ? (i - 100) * 100.0 : i * 100.0);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("time", T0 + 10L * i);
        envelope.put("event", "metric");
        envelope.put("index", "m");
        envelope.put("host", hosts[h]);
        envelope.put("fields", fields);
        body.append(JSON.writeValueAsString(envelope)).append('\n');
      }
    }
    HttpResponse<String> sent =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(server.url() + "/services/collector/event"))
                    .header("Authorization", "Splunk " + TestServers.TOKEN)
                    .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(sent.statusCode()).as(sent.body()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
  }

  /**
   * Every search runs with the row engine refused ({@code pages-only}) and answers the row engine's
   * table; the default engine answers the same.
   */
  @Test
  void metricCommandsFollowedByPageStagesAnswerAsRows() throws Exception {
    for (String query :
        List.of(
            "| mstats avg(cpu.user) AS a max(cpu.sys) where index=m span=1m by host"
                + " | eval d=a*2 | where d > 10 | sort - d, host | head 7",
            "| mstats count(_value) AS n where index=m by metric_name, host"
                + " | stats sum(n) AS total, values(host) AS hosts by metric_name",
            "| mstats rate(net.bytes) AS r where index=m span=5m by host | sort - _time | dedup host",
            "| mstats avg(cpu.*) where index=m by dc | rename \"avg(cpu.sys)\" AS s | fields dc, s",
            "| mstats max(cpu.user) AS m where index=m by host | stats count",
            "| mcatalog values(metric_name) AS names where index=m | eval k=mvcount(names)",
            "| mcatalog values(host) where index=m by metric_name | table values*, metric_name",
            "| mcatalog values(dc) AS dcs values(region) where index=m by host",
            "| mcatalog values(dc) AS dcs where index=m by host | stats count by dcs",
            "| mpreview target_per_timeseries=0 index=m"
                + " | stats avg(_value) AS v, count by host, metric_name",
            "| mpreview target_per_timeseries=3 index=m | sort - _value, host | head 5",
            "| mpreview target_per_timeseries=0 index=m | eval x=_value*2 | table _time, host, dc, x",
            "| mstats prestats=true avg(cpu.user) where index=m span=1m"
                + " | timechart span=5m avg(cpu.user) by host",
            "| mstats prestats=true count(cpu.*) max(net.bytes) where index=m"
                + " | stats count, max(net.bytes) AS most, values(dc) AS dcs by metric_name, host",
            "| mstats prestats=true avg(cpu.*) where index=m span=2m"
                + " | stats avg(cpu.user) AS u, avg(cpu.sys) AS s, count by _time | head 4",
            "| mstats prestats=true max(cpu.sys) where index=m | table _time, host, dc, cpu.sys"
                + " | head 3",
            "| mstats avg(cpu.user) AS a where index=m span=5m by host"
                + " | transaction host startswith=\"h1\" endswith=eval(a>0) maxevents=3 keepevicted=t"
                + " | table _time, host, a, eventcount, closed_txn",
            // mstats append=true later in the pipeline: its points as pages after the others
            "| mstats prestats=true avg(cpu.user) where index=m host=h1 span=1m"
                + " | mstats prestats=true append=true avg(cpu.sys) where index=m host=h2 span=1m"
                + " | timechart span=5m avg(cpu.user) AS u, avg(cpu.sys) AS s",
            "| makeresults count=2 | eval made=1"
                + " | mstats prestats=t append=t count(net.bytes) where index=m host=h2"
                + " | head 4 | fields - _time",
            "| makeresults count=3 | head 1 | eval made=1"
                + " | mstats prestats=t append=t max(cpu.user) where index=m host=h3"
                + " | stats count, count(made) AS made, max(cpu.user) AS m by host")) {
      Table onPages = search(query, "pages-only");
      assertThat(onPages.rows()).as(query).isNotEmpty();
      assertThat(onPages).as(query).isEqualTo(search(query, "rows"));
      assertThat(search(query, "pages")).as(query).isEqualTo(onPages);
    }
  }

  /** A command without a page stage after a metric command keeps its rows, and explain says so. */
  @Test
  void explainShowsWhereMetricCommandsRunOnPages() throws Exception {
    assertThat(explain("| mstats avg(cpu.user) where index=m by host | where host!=\"h1\""))
        .containsEntry("engine", "pages");
    assertThat(explain("| mcatalog values(host) where index=m")).containsEntry("engine", "pages");
    assertThat(
            explain(
                "| mstats prestats=true avg(cpu.user) where index=m span=1m | timechart avg(cpu.user)"))
        .containsEntry("engine", "pages");
    assertThat(
            explain(
                "| makeresults | mstats prestats=t append=t count(cpu.user) where index=m"
                    + " | stats count"))
        .containsEntry("engine", "pages");
    assertThat(explain("| mstats avg(cpu.user) where index=m by host | transaction host"))
        .containsEntry("engine", "pages");
    // a bare word in startswith searches a row's raw text, on pages its _raw column (none here)
    assertThat(
            explain(
                "| mstats avg(cpu.user) where index=m by host | transaction host startswith=\"x\""))
        .containsEntry("engine", "pages");
    // a search of bare words matches none of these rows (no raw text), on rows and pages alike
    assertThat(explain("| mstats avg(cpu.user) where index=m by host | search h1"))
        .containsEntry("engine", "pages");
    // a search comparing a field named with a wildcard compares that name (no row has it): a
    // page stage as any comparison, over the metric commands' rows too
    assertThat(explain("| mstats avg(cpu.user) where index=m by host | search ho*=h1"))
        .containsEntry("engine", "pages");
    for (String query :
        List.of(
            "| mpreview index=m | search ho*=h1 OR host=h1 | stats count by host",
            "| mpreview index=m | search NOT ho*=h1 | stats count")) {
      Table onPages = search(query, "pages-only");
      assertThat(onPages.rows()).as(query).isNotEmpty();
      assertThat(onPages).as(query).isEqualTo(search(query, "rows"));
    }
  }

  private static Map<String, Object> explain(String query) {
    return server.search().explain(server.search().plan(query, null, null));
  }

  /**
   * A search's answer from the native API, whatever its page boundaries: the columns in the order
   * first met with every type each had, and the rows as field → value (nulls left out).
   */
  record Table(Map<String, List<String>> columns, List<Map<String, JsonNode>> rows) {}

  private static Table search(String query, String engine) throws Exception {
    String before = System.getProperty(PageBatch.ENGINE_PROPERTY);
    System.setProperty(PageBatch.ENGINE_PROPERTY, engine);
    try {
      HttpResponse<String> response = native_(query);
      assertThat(response.statusCode())
          .as(engine + " " + query + ": " + response.body())
          .isEqualTo(200);
      Map<String, List<String>> columns = new LinkedHashMap<>();
      List<Map<String, JsonNode>> rows = new ArrayList<>();
      for (JsonNode page : JSON.readTree(response.body()).path("pages")) {
        List<String> names = new ArrayList<>();
        for (JsonNode field : page.path("fields")) {
          String name = field.path("name").asText();
          names.add(name);
          List<String> types = columns.computeIfAbsent(name, n -> new ArrayList<>());
          if (!types.contains(field.path("type").asText())) {
            types.add(field.path("type").asText());
          }
        }
        for (JsonNode values : page.path("rows")) {
          Map<String, JsonNode> row = new TreeMap<>();
          for (int c = 0; c < names.size(); c++) {
            if (!values.get(c).isNull()) {
              row.put(names.get(c), values.get(c));
            }
          }
          rows.add(row);
        }
      }
      return new Table(columns, rows);
    } finally {
      restore(before);
    }
  }

  private static HttpResponse<String> native_(String query) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/search"))
                .header("Authorization", TestServers.basic(PASSWORD))
                .header("Accept", "application/json")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        JSON.writeValueAsString(Map.of("query", query))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
  }

  private static void restore(String before) {
    if (before == null) {
      System.clearProperty(PageBatch.ENGINE_PROPERTY);
    } else {
      System.setProperty(PageBatch.ENGINE_PROPERTY, before);
    }
  }
}
