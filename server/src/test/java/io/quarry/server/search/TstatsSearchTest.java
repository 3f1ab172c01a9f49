package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestServers;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code | tstats}: statistics over default fields, index-time fields and {@code _time}, never a
 * search-time field (Splunk's tstats reads only the index). Expected answers by hand from the six
 * events below; the job statistics show that no journal block was decoded.
 */
class TstatsSearchTest {
  private static final String PASSWORD = "tstats-pw";

  @TempDir static Path dataDirectory;
  @AutoClose private static QuarryServer server;

  @BeforeAll
  static void start() throws Exception {
    server = TestServers.start(dataDirectory, PASSWORD);
    // access_combined extracts clientip, method, status, bytes … at index time; sid is a
    // search-time key=value field only
    String lines =
        "10.0.0.1 - - [07/Jan/2026:10:00:00 +0000] \"GET /a?sid=s1 HTTP/1.1\" 200 100 \"-\" \"ua\"\n"
            + "10.0.0.1 - - [07/Jan/2026:10:20:00 +0000] \"GET /b?sid=s1 HTTP/1.1\" 404 50 \"-\" \"ua\"\n"
            + "10.0.0.2 - - [07/Jan/2026:10:40:00 +0000] \"POST /c HTTP/1.1\" 200 300 \"-\" \"ua\"\n"
            + "10.0.0.3 - - [07/Jan/2026:11:10:00 +0000] \"GET /d HTTP/1.1\" 500 10 \"-\" \"ua\"\n"
            + "10.0.0.2 - - [07/Jan/2026:11:30:00 +0000] \"GET /e HTTP/1.1\" 200 40 \"-\" \"ua\"\n"
            + "10.0.0.1 - - [07/Jan/2026:12:05:00 +0000] \"GET /f HTTP/1.1\" 404 0 \"-\" \"ua\"\n";
    HttpResponse<String> loaded =
        TestServers.postRaw(server, TestServers.TOKEN, "access_combined", lines);
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
  }

  @Test
  void countsByIndexedFields() throws Exception {
    assertThat(search("| tstats count")).contains("{\"count\":\"6\"}");
    String byStatus = search("| tstats count where index=main by status");
    assertThat(byStatus)
        .contains("{\"status\":\"200\",\"count\":\"3\"}")
        .contains("{\"status\":\"404\",\"count\":\"2\"}")
        .contains("{\"status\":\"500\",\"count\":\"1\"}");
    // bytes is a search-time field of access_combined (only clientip, method, uri_path and status
    // are indexed): tstats has no value for it
    assertThat(search("| tstats dc(clientip) AS ips, sum(bytes) AS total where status=200"))
        .contains("{\"ips\":\"2\"}")
        .doesNotContain("total");
    assertThat(search("| tstats count, max(_time) AS last by clientip | where count > 1"))
        .contains("\"clientip\":\"10.0.0.1\",\"count\":\"3\",\"last\":\"1767787500\"")
        .contains("\"clientip\":\"10.0.0.2\",\"count\":\"2\"")
        .doesNotContain("10.0.0.3");
  }

  @Test
  void bucketsTimeBySpan() throws Exception {
    // 10:00 has three events, 11:00 two, 12:00 one
    String hourly = search("| tstats count where sourcetype=access_combined by _time span=1h");
    assertThat(hourly)
        .contains("\"count\":\"3\"")
        .contains("\"count\":\"2\"")
        .contains("\"count\":\"1\"");
    assertThat(hourly.lines().filter(l -> l.contains("\"count\"")).count()).isEqualTo(3);
  }

  @Test
  void aSearchTimeFieldHasNoValue() throws Exception {
    // sid comes from the event's text at search time: tstats does not read it
    assertThat(search("index=main | stats count by sid")).contains("\"sid\":\"s1\"");
    assertThat(search("| tstats count by sid")).doesNotContain("\"sid\"");
    assertThat(search("| tstats count where sid=s1")).contains("{\"count\":\"0\"}");
  }

  @Test
  void metadataAndEventcountSummariseTheIndex() throws Exception {
    // first event 2026-01-07T10:00:00Z, last 12:05:00Z; Quarry keeps no separate index time, so
    // recentTime is the last event's time
    assertThat(search("| metadata type=sourcetypes index=main"))
        .contains(
            "{\"firstTime\":\"1767780000\",\"sourcetype\":\"access_combined\","
                + "\"lastTime\":\"1767787500\",\"recentTime\":\"1767787500\","
                + "\"totalCount\":\"6\",\"type\":\"sourcetypes\"}");
    assertThat(search("| eventcount index=main")).contains("{\"count\":\"6\"}");
    assertThat(search("| eventcount summarize=false index=main index=nosuch"))
        .contains("{\"count\":\"6\",\"index\":\"main\",\"server\":\"quarry\"}");
    HttpResponse<String> noType = TestServers.export(server, PASSWORD, "| metadata index=main");
    assertThat(noType.statusCode()).isEqualTo(400);
    assertThat(noType.body()).contains("type=hosts");
  }

  @Test
  void dbinspectListsTheBuckets() throws Exception {
    // the six events are in main's hot bucket: 10:00 to 12:05 on 2026-01-07
    String buckets = search("| dbinspect index=main | where eventCount > 0");
    assertThat(buckets)
        .contains("\"index\":\"main\"")
        .contains("\"state\":\"hot\"")
        .contains("\"eventCount\":\"6\"")
        .contains("\"startEpoch\":\"1767780000\"")
        .contains("\"endEpoch\":\"1767787500\"")
        .contains("\"bucketId\":\"main~")
        .contains("\"path\":\"")
        .contains("sizeOnDiskMB");
    assertThat(search("| dbinspect | stats sum(eventCount) AS n")).contains("{\"n\":\"6\"}");
    HttpResponse<String> missing = TestServers.export(server, PASSWORD, "| dbinspect index=nosuch");
    assertThat(missing.statusCode()).isEqualTo(200);
    assertThat(missing.body()).contains("does not exist");
  }

  @Test
  void unsupportedOptionsAndBadEvalAreClearErrors() throws Exception {
    for (String query :
        new String[] {
          "| tstats count from datamodel=Web by Web.status",
          "| tstats prestats=true count",
          "| tstats by host",
          "| tstats count by host span=1h",
          "| tstats count(eval(status>1))",
          "| metadata type=bogus",
          "| eventcount report_size=true",
          "| dbinspect span=1d",
          "| dbinspect corruptonly=true",
          "index=main | dbinspect",
          "index=main | stats count(eval(nosuchfunction(status)))",
          "index=main | stats count(eval(status>1)"
        }) {
      HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
      assertThat(response.statusCode()).as(query + ": " + response.body()).isEqualTo(400);
      assertThat(response.body()).as(query).contains("QUERY_PARSE");
    }
    // nothing accepted was lost: the six events are all still there
    assertThat(search("| tstats count")).contains("{\"count\":\"6\"}");
  }

  private static String search(String query) throws Exception {
    HttpResponse<String> response = TestServers.export(server, PASSWORD, query);
    assertThat(response.statusCode()).as(query + ": " + response.body()).isEqualTo(200);
    return response.body();
  }
}
