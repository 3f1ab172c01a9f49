package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

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
 * {@code mstats}, {@code mcatalog}, {@code mpreview} and {@code mstats prestats=true} followed by
 * commands run on pages ({@link MetricExecution}: the metric command's typed pages into {@code
 * PageReduce}) and answer the same rows, values and column types whatever the page size (and some
 * as computed here from the points sent, {@link #answersComputedFromThePoints}), on a real metric
 * index: three hosts, one without the {@code dc} dimension, three metrics, more points than a page
 * holds (so prestats' and mpreview's pages carry several series and metrics).
 */
class MetricPagesSearchTest {
  private static final String PASSWORD = "metric-pages-pw";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = Instant.parse("2026-01-07T10:00:00Z").getEpochSecond();
  private static final int POINTS = 240; // 40 minutes at 10 s

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void load() throws Exception {
    server =
        TestServers.start(
            dataDirectory, PASSWORD, settings -> TestServers.withMetricIndex(settings, 200L));
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
    TestServers.postEvents(server, TestServers.TOKEN, body.toString());
  }

  /** Answers computed here from the points sent (h1..h3; cpu.user (i % 7) + 10h + 0.5). */
  @Test
  void answersComputedFromThePoints() throws Exception {
    Table most = search("| mstats max(cpu.user) AS m where index=m by host | sort host", 1024);
    assertThat(most.rows().stream().map(r -> r.get("host").asText() + "=" + r.get("m").asText()))
        .containsExactly("h1=6.5", "h2=16.5", "h3=26.5");
    Table counts =
        search(
            "| mstats count(_value) AS n where index=m by metric_name, host"
                + " | stats sum(n) AS total by metric_name",
            1024);
    assertThat(
            counts.rows().stream()
                .map(r -> r.get("metric_name").asText() + "=" + r.get("total").asText()))
        .containsExactly("cpu.sys=720", "cpu.user=720", "net.bytes=720");
    assertThat(
            search("| mcatalog values(dc) AS dcs where index=m by host | stats count", 1024).rows())
        .singleElement()
        .satisfies(row -> assertThat(row.get("count").asText()).isEqualTo("3"));
  }

  /**
   * Every search runs with the row engine refused ({@code pages-only}) and answers the same table
   * in pages of 1,024 rows, of a few and of one.
   */
  @Test
  void metricCommandsFollowedByPageStagesSamePagedAnyWay() throws Exception {
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
      Table onPages = search(query, 1024);
      assertThat(onPages.rows()).as(query).isNotEmpty();
      assertThat(search(query, 7).values())
          .as(query + " in pages of 7")
          .isEqualTo(onPages.values());
      assertThat(search(query, 1).values())
          .as(query + " in pages of 1")
          .isEqualTo(onPages.values());
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
      Table onPages = search(query, 1024);
      assertThat(onPages.rows()).as(query).isNotEmpty();
      assertThat(search(query, 3).values())
          .as(query + " in pages of 3")
          .isEqualTo(onPages.values());
    }
  }

  private static Map<String, Object> explain(String query) {
    return server.search().explain(server.search().plan(query, null, null));
  }

  /**
   * A search's answer from the native API, whatever its page boundaries: the columns in the order
   * first met with every type each had, and the rows as field → value (nulls left out).
   */
  record Table(Map<String, List<String>> columns, List<Map<String, JsonNode>> rows) {
    /**
     * The rows as field → value text: the answer as far as it does not depend on where the pages
     * part (a page's column types follow the rows it holds).
     */
    List<Map<String, String>> values() {
      return rows.stream()
          .map(
              row -> {
                Map<String, String> text = new TreeMap<>();
                row.forEach(
                    (name, value) ->
                        text.put(name, value.isTextual() ? value.asText() : value.toString()));
                return text;
              })
          .toList();
    }
  }

  private static Table search(String query, int pageSize) throws Exception {
    System.setProperty(SearchService.PAGE_SIZE_PROPERTY, Integer.toString(pageSize));
    try {
      HttpResponse<String> response = native_(query);
      assertThat(response.statusCode())
          .as(pageSize + " " + query + ": " + response.body())
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
      System.clearProperty(SearchService.PAGE_SIZE_PROPERTY);
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
}
