package io.quarry.server.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarry.server.QuarryServer;
import io.quarry.server.TestConfig;
import io.quarry.server.TestHttp;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the memory breaker over all searches (search.maxTotalMemoryBytes, 1 MiB here; one search
 * alone may hold 64 MiB) counts beyond operator state and kept job results: subsearch rows, {@code
 * streamstats} windows and groups, {@code fieldsummary}'s distinct values, lookup tables ({@code
 * lookup}, {@code inputlookup}) and the rows {@code outputlookup} keeps. Each search past it fails
 * with 503 {@code SEARCH_MEMORY_BREAKER} naming what asked, not an out-of-memory error, and
 * afterwards the server answers, ingests and searches as before — what the failed search held was
 * given back.
 */
class MemoryBreakerCoverageTest {
  private static final String ADMIN = TestHttp.basic("admin", "admin-pw");
  private static final int EVENTS = 12_000;

  @TempDir static Path directory;
  @AutoClose private static QuarryServer server;
  private static TestHttp http;

  @BeforeAll
  static void start() throws Exception {
    server =
        TestConfig.yaml("search: {maxMemoryBytes: 67108864, maxTotalMemoryBytes: 1048576}")
            .start(directory);
    http = new TestHttp(server.url());
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < EVENTS; i++) {
      lines.append("2026-01-07T10:00:00Z x=value").append(i).append(" y=g").append(i % 3);
      lines.append(" pad=").append("p".repeat(200)).append('\n');
    }
    HttpResponse<String> loaded =
        http.send("POST", "/services/collector/raw?sourcetype=app", "Splunk tok", lines.toString());
    assertThat(loaded.statusCode()).as(loaded.body()).isEqualTo(200);
    // a lookup table of 20,000 rows: a few MiB on the heap
    StringBuilder table = new StringBuilder("k,v\n");
    for (int i = 0; i < 20_000; i++) {
      table.append("value").append(i).append(",owner-of-value-").append(i).append('\n');
    }
    HttpResponse<String> uploaded =
        http.send("PUT", "/api/v1/lookups/big", ADMIN, table.toString());
    assertThat(uploaded.statusCode()).as(uploaded.body()).isIn(200, 201);
    HttpResponse<String> small =
        http.send("PUT", "/api/v1/lookups/small", ADMIN, "k,v\nvalue1,owner-of-value-1\n");
    assertThat(small.statusCode()).as(small.body()).isIn(200, 201);
  }

  /** After each refused search: health, ingestion and searches as before. */
  @AfterEach
  void serverStaysHealthy() throws Exception {
    assertThat(http.send("GET", "/health", null, null).statusCode()).isEqualTo(200);
    HttpResponse<String> ingested =
        http.send(
            "POST",
            "/services/collector/raw?sourcetype=app&index=main",
            "Splunk tok",
            "2026-01-01T00:00:00Z after=1\n");
    assertThat(ingested.statusCode()).isEqualTo(200);
    for (int i = 0; i < 3; i++) { // nothing left held: small searches run, again and again
      assertThat(http.export(ADMIN, "x=value* | stats count by y")).hasSize(3);
      assertThat(http.export(ADMIN, "x=value1 | lookup small k AS x OUTPUT v").toString())
          .contains("owner-of-value-1");
    }
  }

  @Test
  void subsearchRowsCount() throws Exception {
    assertBreaker("x=value* [search x=value* | table _raw x pad]", "subsearch");
  }

  @Test
  void streamstatsWindowsCount() throws Exception {
    // (a stats at the end: no row is streamed before the failure, so it is the answer's status)
    assertBreaker("x=value* | streamstats time_window=1d count | stats count", "streamstats");
    assertBreaker("x=value* | streamstats window=10000 dc(x) AS d | stats count", "streamstats");
  }

  @Test
  void streamstatsGroupsCount() throws Exception {
    // 12,000 groups, each keeping a 200-character value: on pages a group's key and count alone
    // (RunningGroups' arrays, ~60 bytes) would stay under the 1 MiB breaker
    assertBreaker(
        "x=value* | streamstats count, values(pad) AS p by x | stats count", "streamstats");
  }

  @Test
  void fieldsummaryValuesCount() throws Exception {
    assertBreaker("x=value* | fieldsummary", "fieldsummary");
  }

  @Test
  void lookupTablesCount() throws Exception {
    assertBreaker("x=value* | lookup big k AS x OUTPUT v", "lookup");
    assertBreaker("| inputlookup big", "inputlookup");
  }

  @Test
  void rowsOutputlookupKeepsCount() throws Exception {
    assertBreaker("x=value* | table x pad | outputlookup copy | stats count", "outputlookup");
    assertThat(http.send("GET", "/api/v1/lookups/copy", ADMIN, null).statusCode())
        .as("nothing written")
        .isEqualTo(404);
  }

  private static void assertBreaker(String query, String what) throws Exception {
    HttpResponse<String> answer =
        http.send(
            "POST",
            "/services/search/jobs/export",
            ADMIN,
            "output_mode=json&search=" + TestHttp.encode(query));
    assertThat(answer.statusCode()).as(query + ": " + answer.body()).isEqualTo(503);
    assertThat(answer.headers().firstValue("Retry-After")).as(query).isPresent();
    assertThat(answer.body())
        .as(query)
        .contains("SEARCH_MEMORY_BREAKER")
        .contains("search.maxTotalMemoryBytes")
        .contains(what);
  }
}
