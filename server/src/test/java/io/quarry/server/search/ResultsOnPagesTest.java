package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The commands after a generator ({@code makeresults}, {@code inputlookup}), a metric command
 * ({@code mstats}, {@code mpreview}, {@code mcatalog}) and an aggregation ({@code stats}, {@code
 * timechart}) run on pages ({@code PageReduce}) in the forms the page engine once refused there: a
 * {@code search} of bare words after {@code append}, {@code join}, {@code appendcols} or {@code
 * appendpipe} (their rows are no events either: a term matches none, comparisons still decide), a
 * wildcard {@code rename} that matches {@code _time}, and {@code appendpipe}'s commands over held
 * pages of several schemas or reading every field. Each runs with the row engine refused ({@code
 * pages-only}) and answers the same rows in pages of 1,024 rows, of one and of two; the
 * hand-computed ones answer a table written here from the data. On a real store: six events in
 * {@code main}, a metric index {@code m}, the {@code regions.csv} lookup.
 */
class ResultsOnPagesTest {
  private static final String PASSWORD = "results-pages-pw";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = Instant.parse("2026-01-07T10:00:00Z").getEpochSecond();

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void load() throws Exception {
    server =
        TestServers.start(
            dataDirectory, PASSWORD, settings -> TestServers.withMetricIndex(settings, 200L));
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < 6; i++) { // h0 h1 h2 h0 h1 h2; even: WARN alpha, odd: INFO beta
      Map<String, Object> envelope = new LinkedHashMap<>();
      envelope.put("time", T0 + i);
      envelope.put("host", "h" + i % 3);
      envelope.put("sourcetype", "app");
      envelope.put(
          "event",
          i % 2 == 0 ? "level=WARN user=u" + i + " alpha" : "level=INFO user=u" + i + " beta");
      body.append(JSON.writeValueAsString(envelope)).append('\n');
    }
    for (int h = 1; h <= 3; h++) {
      for (int i = 0; i < 30; i++) {
        Map<String, Object> fields = new LinkedHashMap<>();
        if (h != 2) {
          fields.put("dc", "dc" + (h + i % 2));
        }
        fields.put("metric_name:cpu.user", (i % 7) + 10.0 * h + 0.5);
        Map<String, Object> envelope = new LinkedHashMap<>();
        envelope.put("time", T0 + 10L * i);
        envelope.put("event", "metric");
        envelope.put("index", "m");
        envelope.put("host", "h" + h);
        envelope.put("fields", fields);
        body.append(JSON.writeValueAsString(envelope)).append('\n');
      }
    }
    TestServers.postEvents(server, TestServers.TOKEN, body.toString());
    RandomEventStore.uploadRegions(server, PASSWORD);
  }

  /** The forms over a generator's rows, a metric command's and an aggregation's. */
  @Test
  void laterCommandsRunOnPagesSamePagedAnyWay() throws Exception {
    for (String query :
        List.of(
            // a bare word after rows brought in: matches none of them, comparisons decide
            "| makeresults count=3 | streamstats count AS n | fields - _time"
                + " | append [search index=main alpha | fields host, _raw] | search alpha OR n=2",
            "| inputlookup regions.csv | append [search index=main] | search Europe OR label=one",
            "| inputlookup regions.csv | appendcols [| makeresults | eval extra=7]"
                + " | search one OR extra=7 | fields - _time",
            "index=main | stats count by host | append [search index=main alpha]"
                + " | search alpha OR count>1",
            "index=main | stats count by host"
                + " | join host [search index=main level=WARN | stats count AS warn by host]"
                + " | search h1 OR warn>=1",
            "index=main | stats count by host, level | appendpipe [stats sum(count) AS n by level]"
                + " | search WARN OR n>0",
            "| mstats max(cpu.user) AS mx where index=m by host | append [search index=main]"
                + " | search h1 OR mx>30",
            // a wildcard rename that matches _time: epoch seconds under its new name
            "| makeresults count=2 | eval a=1 | rename * AS x_* | fields - x__time",
            "| makeresults count=2 | eval a=1 | rename _t* AS t* | eval later=time>0 | fields - time",
            "| inputlookup regions.csv | rename * AS x_*",
            "index=main | timechart span=1h count | rename _t* AS t*",
            "index=main | stats count by host | rename * AS s_*",
            "index=main | stats count by host | eval _time=1000 | rename h* AS _ti* | rename _*"
                + " AS u_*",
            "| dbinspect index=main | fields - sizeOnDiskMB",
            "| dbinspect index=* | rename * AS d_* | stats sum(d_eventCount) AS n by d_index",
            "| mstats avg(cpu.user) AS a where index=m span=5m by host | rename _t* AS t*"
                + " | sort t, host | head 4",
            "| mcatalog values(dc) AS dcs where index=m by host | rename * AS c_*",
            // appendpipe over pages of several schemas, or reading every field
            "| makeresults count=2 | eval a=1 | append [| makeresults | eval b=2] | fields - _time"
                + " | appendpipe [stats count by b]",
            "| makeresults count=2 | eval a=1 | append [| makeresults | eval b=2] | fields - _time"
                + " | appendpipe [format]",
            "| inputlookup regions.csv | appendpipe [format]",
            "| inputlookup regions.csv | appendpipe [fieldsummary]",
            "index=main | stats count by host, level | appendpipe [fieldsummary]",
            "| mpreview target_per_timeseries=2 index=m | appendpipe [fieldsummary]"
                + " | fields field, count, distinct_count",
            "index=main | stats count by host | appendpipe [search h1 OR count=2]")) {
      List<String> onPages = rows(query, SearchService.PAGE_SIZE);
      assertThat(onPages).as(query).isNotEmpty();
      // by name and value: a page's column order and types follow the rows it holds
      assertThat(EnginePages.byName(rows(query, 1)))
          .as(query + " in pages of 1")
          .isEqualTo(EnginePages.byName(onPages));
      assertThat(EnginePages.byName(rows(query, 2)))
          .as(query + " in pages of 2")
          .isEqualTo(EnginePages.byName(onPages));
    }
  }

  /** Hand-computed answers of some of the forms above, from the six events and the lookup. */
  @Test
  void answersAsComputedFromTheData() throws Exception {
    // alpha is in three appended events' _raw: they match on it, and n=2 on its field (a row
    // without _raw matches a bare word against its fields' whole values: FieldValueTerm)
    assertThat(
            rows(
                "| makeresults count=3 | streamstats count AS n | fields - _time"
                    + " | append [search index=main alpha | fields host, _raw]"
                    + " | search alpha OR n=2"))
        .containsExactly(
            "n:LONG=[2]",
            "host:STRING=[h1]_raw:STRING=[level=WARN user=u4 alpha]_time:TIMESTAMP=[1767780004000000]",
            "host:STRING=[h2]_raw:STRING=[level=WARN user=u2 alpha]_time:TIMESTAMP=[1767780002000000]",
            "host:STRING=[h0]_raw:STRING=[level=WARN user=u0 alpha]_time:TIMESTAMP=[1767780000000000]");
    // Europe is the whole value of the eu row's label; no appended event holds it in its _raw
    assertThat(
            rows(
                "| inputlookup regions.csv | append [search index=main]"
                    + " | search Europe OR label=one"))
        .containsExactly(
            "region:STRING=[eu]label:STRING=[Europe]zone:STRING=[z9]",
            "region:STRING=[kv1]label:STRING=[one]zone:STRING=[z1]");
    assertThat(rows("| makeresults count=2 | eval a=1 | rename * AS x_* | fields - x__time"))
        .containsExactly("x_a:LONG=[1]", "x_a:LONG=[1]");
    assertThat(rows("| inputlookup regions.csv | rename * AS x_*"))
        .containsExactly(
            "x_region:STRING=[eu]x_label:STRING=[Europe]x_zone:STRING=[z9]",
            "x_region:STRING=[kv0]x_label:STRING=[zero]",
            "x_region:STRING=[kv1]x_label:STRING=[one]x_zone:STRING=[z1]",
            "x_region:STRING=[kv1]x_label:STRING=[uno]");
    // the hour's bucket: _time renamed is epoch seconds
    assertThat(rows("index=main | timechart span=1h count | rename _t* AS t*"))
        .containsExactly("time:LONG=[" + T0 + "]count:LONG=[6]");
    assertThat(rows("index=main | stats count by host | rename * AS s_*"))
        .containsExactly(
            "s_host:STRING=[h0]s_count:LONG=[2]",
            "s_host:STRING=[h1]s_count:LONG=[2]",
            "s_host:STRING=[h2]s_count:LONG=[2]");
    assertThat(
            rows(
                "| makeresults count=2 | eval a=1 | append [| makeresults | eval b=2]"
                    + " | fields - _time | appendpipe [stats count by b]"))
        .containsExactly("a:LONG=[1]", "a:LONG=[1]", "b:STRING=[2]", "b:STRING=[2]count:LONG=[1]");
    assertThat(rows("| dbinspect index=main | table index, eventCount, splunk_server"))
        .containsExactly("index:STRING=[main]eventCount:LONG=[6]splunk_server:STRING=[quarry]");
    // every row has count=2 (h1 also holds the word as its host): each matches once
    assertThat(rows("index=main | stats count by host | appendpipe [search h1 OR count=2]").size())
        .isEqualTo(6);
  }

  private static List<String> rows(String query) throws Exception {
    return rows(query, SearchService.PAGE_SIZE).stream()
        .map(row -> row.replace("\u0001", ""))
        .toList();
  }

  private static List<String> rows(String query, int pageSize) throws Exception {
    return EnginePages.rows(server, query, false, pageSize);
  }
}
